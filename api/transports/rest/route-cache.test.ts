import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { RouteCache } from "./route-cache";

describe("RouteCache", () => {
  const app = () => {
    const a = new Hono({ router: new RouteCache() });
    a.use("*", async (c, next) => {
      await next();
      c.header("x-seen", "1");
    });
    a.get("/m/exists", (c) => c.text("exists"));
    a.get("/m/:address", (c) => c.text(`market ${c.req.param("address")}`));
    a.post("/m/:address/orders", (c) => c.text(`orders of ${c.req.param("address")}`));
    return a;
  };

  it("answers each path with its own route and parameters, the second time from the cache alike", async () => {
    const a = app();
    for (let round = 0; round < 2; round++) {
      const exists = await a.request("/m/exists");
      assert.equal(await exists.text(), "exists");
      assert.equal(exists.headers.get("x-seen"), "1", "the middleware ran");
      assert.equal(await (await a.request("/m/0xab")).text(), "market 0xab");
      assert.equal(await (await a.request("/m/0xcd")).text(), "market 0xcd");
      assert.equal(await (await a.request("/m/0xab/orders", { method: "POST" })).text(), "orders of 0xab");
      assert.equal((await a.request("/m/0xab/orders")).status, 404, "GET is not POST");
    }
  });

  it("a route added after a match is found: adding drops what was kept", async () => {
    const a = app();
    assert.equal((await a.request("/late")).status, 404);
    a.get("/late", (c) => c.text("late"));
    assert.equal(await (await a.request("/late")).text(), "late");
  });

  it("stays bounded under many distinct paths", async () => {
    const router = new RouteCache<number>();
    router.add("GET", "/m/:id", 1);
    for (let i = 0; i < 5_000; i++) {
      const [first] = router.match("GET", `/m/${i}`)[0];
      assert.ok(first, `/m/${i} matched`);
      assert.equal((first[1] as Record<string, string>).id, String(i));
    }
    assert.ok(router.size <= 2_000, `kept ${router.size}`);
  });
});
