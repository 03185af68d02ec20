import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { RunningService } from "../../service";
import { systemClock, type Clock } from "../../../relayer/clock";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";

/** The value of one sample line, or 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && want.every((w) => l.includes(w)));
  return line ? Number(line.split(" ").pop()) : 0;
}

describe("/metrics", () => {
  let svc: RunningService;
  let t: TestService<Clock>;
  before(async () => {
    t = await startTestService({}, { clock: systemClock });
    svc = t.svc;
  });
  after(async () => {
    await stopTestService(t);
  });

  it("counts requests by operation and status, times them, and exposes process metrics", async () => {
    for (let i = 0; i < 3; i++) await (await fetch(`${svc.baseUrl}/time`)).arrayBuffer();
    await (await fetch(`${svc.baseUrl}/no/such/path`)).arrayBuffer();
    const res = await fetch(new URL("/metrics", svc.baseUrl));
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    const text = await res.text();
    assert.equal(sample(text, "http_requests_total", { operation: "getServerTime", method: "GET", status: "200", surface: "rest" }), 3);
    assert.equal(sample(text, "http_requests_total", { operation: "(unmatched)", status: "404" }), 1);
    assert.equal(sample(text, "http_request_duration_seconds_count", { operation: "getServerTime", status: "200" }), 3);
    assert.match(text, /^process_cpu_user_seconds_total /m);
    assert.match(text, /^nodejs_heap_size_used_bytes /m);
  });

  it("is not an agent API operation", async () => {
    const doc = (await (await fetch(`${svc.baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.equal(
      Object.keys(doc.paths).some((p) => p.includes("metrics")),
      false,
    );
    assert.equal(
      svc.registry.operations.some((o) => o.path.includes("metrics")),
      false,
    );
  });
});
