/**
 * The text rules of a new market (docs/market-creation.md "Checks"): the title is normalised (invisible characters
 * dropped, whitespace collapsed, first letter upper-case) and bounded; title, description and outcome labels pass the
 * same mechanical content filter as comments (api/domain/content/comment-rules.ts), reported as a check failure
 * instead of thrown, so preflight can answer every failure at once.
 */
import { ApiError } from "../../platform/errors/api-error";
import { checkCommentText } from "../content/comment-rules";
import type { CheckFailure } from "./failures";

export const TITLE_MIN = 10;
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5_000;
export const OUTCOME_LABEL_MAX = 64;

const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

export function normaliseTitle(raw: string): string {
  const t = raw.replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** The content filter's verdict on `text`, as a failure of `field`, or null when it passes. */
export function contentFailure(text: string, field: string): CheckFailure | null {
  try {
    checkCommentText(text);
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.code === "CONTENT_BLOCKED") {
      return {
        code: "CONTENT_BLOCKED",
        field,
        message: err.detail.replace(/^a comment|^the comment/, `the ${field}`),
        reason: String(err.extensions.reason ?? ""),
      };
    }
    throw err;
  }
}

/** Every failure of the title, description and outcome labels. */
export function textFailures(title: string, description: string, outcomes: string[]): CheckFailure[] {
  const out: CheckFailure[] = [];
  const t = normaliseTitle(title);
  if (t.length < TITLE_MIN || t.length > TITLE_MAX)
    out.push({
      code: "INVALID_PAYLOAD",
      field: "title",
      message: `the title has ${t.length} characters once normalised; ${TITLE_MIN}..${TITLE_MAX} are allowed`,
    });
  else {
    const c = contentFailure(t, "title");
    if (c) out.push(c);
  }
  if (description.length > DESCRIPTION_MAX)
    out.push({ code: "INVALID_PAYLOAD", field: "description", message: `the description has ${description.length} characters; at most ${DESCRIPTION_MAX}` });
  else if (description.trim().length > 0) {
    const c = contentFailure(description, "description");
    if (c) out.push(c);
  }
  const labels = outcomes.map((o) => o.replace(INVISIBLE, "").trim());
  labels.forEach((l, i) => {
    if (l.length < 1 || l.length > OUTCOME_LABEL_MAX)
      out.push({ code: "INVALID_PAYLOAD", field: `outcomes.${i}`, message: `an outcome label has 1..${OUTCOME_LABEL_MAX} characters` });
  });
  if (new Set(labels.map((l) => l.toLowerCase())).size !== labels.length)
    out.push({ code: "INVALID_PAYLOAD", field: "outcomes", message: "outcome labels must differ" });
  return out;
}
