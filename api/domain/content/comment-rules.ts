/**
 * The content rules of market comments (docs/content.md "Comment rules"): the one place that answers 400
 * CONTENT_BLOCKED, with a `reason` agents can branch on. Deliberately small and mechanical; no moderation model.
 */
import { isIP } from "node:net";
import { ApiError } from "../../platform/errors/api-error";
import { isBlockedAddress } from "../../platform/net/blocked-addresses";

/** Most links one comment may carry (link spam). */
export const MAX_LINKS_PER_COMMENT = 3;

// Zero-width and other invisible format characters: a comment of only these reads as empty.
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"')\]]+/gi;
// Host names that only mean something inside someone's network.
const PRIVATE_NAME = /(^|\.)(localhost|local|internal|lan|home\.arpa)$/i;

function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (isIP(h)) return isBlockedAddress(h);
  return PRIVATE_NAME.test(h);
}

/** The comment text to store (trimmed), or CONTENT_BLOCKED naming the rule it breaks. */
export function checkCommentText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.replace(INVISIBLE, "").trim().length === 0) {
    throw new ApiError("CONTENT_BLOCKED", "the comment is empty once whitespace and invisible characters are removed", { reason: "EMPTY", field: "text" });
  }
  const links = trimmed.match(URL_IN_TEXT) ?? [];
  if (links.length > MAX_LINKS_PER_COMMENT) {
    throw new ApiError("CONTENT_BLOCKED", `a comment may carry at most ${MAX_LINKS_PER_COMMENT} links; this one has ${links.length}`, {
      reason: "TOO_MANY_LINKS",
      field: "text",
      limit: MAX_LINKS_PER_COMMENT,
    });
  }
  for (const link of links) {
    let host: string;
    try {
      host = new URL(link).hostname;
    } catch {
      continue; // not a URL after all: plain text
    }
    if (isPrivateHost(host)) {
      throw new ApiError("CONTENT_BLOCKED", `links must point at public hosts; ${host} is a private, loopback or local address`, {
        reason: "PRIVATE_LINK",
        field: "text",
      });
    }
  }
  return trimmed;
}
