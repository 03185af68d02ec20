import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { ApiError } from "./api-error";
import { PROBLEM_CONTENT_TYPE, problemOf, problemResponse } from "./problem";

describe("problemOf", () => {
  it("builds the five standard members, then the extensions", () => {
    const p = problemOf(
      new ApiError("CONFLICT", "the subscription is disabled", { reason: "DISABLED", subscriptionStatus: "disabled" }),
      "http://127.0.0.1:8080/api/agent/v1/webhooks/x/test",
    );
    assert.deepEqual(Object.keys(p).slice(0, 5), ["type", "title", "status", "detail", "code"]);
    assert.equal(p.type, "http://127.0.0.1:8080/problems/CONFLICT");
    assert.equal(p.reason, "DISABLED");
    assert.equal(p.subscriptionStatus, "disabled");
  });

  it("an extension named like a standard member never overrides it", async () => {
    const err = new ApiError("CONFLICT", "real detail", { status: "disabled", code: "OTHER", detail: "fake", title: "fake", type: "x" });
    const p = problemOf(err, "http://127.0.0.1:8080/x", { status: 200 });
    assert.equal(p.status, 409);
    assert.equal(p.code, "CONFLICT");
    assert.equal(p.detail, "real detail");
    assert.equal(p.title, "Conflict");
    assert.equal(p.type, "http://127.0.0.1:8080/problems/CONFLICT");
    const res = problemResponse(err, "http://127.0.0.1:8080/x");
    assert.equal(res.status, 409);
    assert.equal(res.headers.get("content-type"), PROBLEM_CONTENT_TYPE);
    assert.equal(((await res.json()) as { status: number }).status, 409);
  });
});
