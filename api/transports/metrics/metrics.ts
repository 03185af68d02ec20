/**
 * Prometheus metrics at /metrics (prom-client): requests by operation, method, status and surface (rest, or mcp for
 * the MCP adapter's internal calls), their durations, and the default process metrics. Each app has its own
 * prom-client Registry, so several services in one process (tests) do not share counters. Not an agent API
 * operation: it is not in the registry, /openapi.json or the MCP tools.
 */
import { performance } from "node:perf_hooks";
import type { Hono, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { collectDefaultMetrics, Counter, Histogram, Registry as PromRegistry } from "prom-client";
import { fullPath, honoPath, type Registry } from "../../registry/registry";
import { internalCallOf } from "../middleware/caller";

export const METRICS_PATH = "/metrics";

export interface Metrics {
  registry: PromRegistry;
  requests: Counter<"operation" | "method" | "status" | "surface">;
  duration: Histogram<"operation" | "method" | "status" | "surface">;
  /** JSON-RPC messages received at /mcp, by method and (for tools/call) tool. */
  mcpMessages: Counter<"method" | "tool">;
  middleware: MiddlewareHandler;
}

export function createMetrics(apiRegistry: Registry): Metrics {
  const registry = new PromRegistry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["operation", "method", "status", "surface"] as const;
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by operation, method, status and surface",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by operation, method, status and surface",
    labelNames,
    registers: [registry],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  const mcpMessages = new Counter({
    name: "mcp_messages_total",
    help: "MCP JSON-RPC messages by method and tool",
    labelNames: ["method", "tool"] as const,
    registers: [registry],
  });
  const byRoute = new Map(apiRegistry.operations.map((op) => [`${op.method} ${honoPath(fullPath(op))}`, op.id]));

  const middleware: MiddlewareHandler = async function metricsMiddleware(c, next) {
    // Wall-clock latency, not business time: the injectable service clock may be a manual one.
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routePath(c, -1);
      // Operation ids for registry routes, the route pattern for other routes, one bucket for unmatched paths.
      const operation = byRoute.get(`${c.req.method} ${route}`) ?? (route.endsWith("*") ? "(unmatched)" : route);
      const labels = { operation, method: c.req.method, status: String(c.res.status), surface: internalCallOf(c)?.surface ?? "rest" };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - started) / 1000);
    }
  };
  return { registry, requests, duration, mcpMessages, middleware };
}

export function mountMetrics(app: Hono, metrics: Metrics): void {
  app.get(METRICS_PATH, async (c) => c.body(await metrics.registry.metrics(), 200, { "Content-Type": metrics.registry.contentType }));
}
