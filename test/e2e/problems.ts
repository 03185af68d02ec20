/** Assertions on RFC 9457 problem answers, with the code names and titles of api/platform/errors/codes.ts. */
import { strict as assert } from "node:assert";
import { ERROR_CODES, type ErrorCode } from "../../api/platform/errors/codes";
import type { Reply } from "./client";

/** `r` is an RFC 9457 problem of `code` (its status, title, `type` URI ending in the code, a detail). */
export function assertProblem(r: Reply, code: ErrorCode, what: string): void {
  const want = ERROR_CODES[code];
  const seen = `${what} -> ${r.status} ${JSON.stringify(r.json).slice(0, 600)}`;
  assert.equal(r.status, want.status, `status of ${seen}`);
  assert.match(r.contentType, /^application\/problem\+json/, `content-type of ${seen}`);
  assert.equal(r.json.code, code, `code of ${seen}`);
  assert.equal(r.json.status, want.status, `status member of ${seen}`);
  assert.equal(r.json.title, want.title, `title of ${seen}`);
  assert.equal(typeof r.json.type, "string", `type of ${seen}`);
  assert.ok(new URL(r.json.type as string).pathname.endsWith(`/problems/${code}`), `type URI of ${seen}`);
  assert.ok(typeof r.json.detail === "string" && r.json.detail.length > 0, `detail of ${seen}`);
}
