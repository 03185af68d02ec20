/**
 * Middleware under test, served over real HTTP: a Hono app with the routes a test mounts, answering errors the way the
 * service does (an ApiError becomes its RFC 9457 problem through the service's own problemResponse), on a free
 * loopback port. The tests beside each middleware (api/transports/middleware/<name>/index.test.ts) use it.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { ApiError } from "../../api/platform/errors/api-error";
import { problemResponse } from "../../api/platform/errors/problem";
import { responseHeaders } from "../../api/transports/middleware/response-headers";

export interface ServedApp {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** fetch against the app: `call("/path", init)`. */
  call(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function serveMiddleware(mount: (app: Hono) => void): Promise<ServedApp> {
  const app = new Hono();
  app.onError((err, c) => (err instanceof ApiError ? problemResponse(err, c.req.url) : c.text(`unexpected: ${String(err)}`, 500)));
  app.use(responseHeaders()); // as the service mounts it: the other middlewares add their headers through it
  mount(app);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    call: (path, init) => fetch(`${url}${path}`, init),
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
