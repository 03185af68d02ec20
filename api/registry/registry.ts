/**
 * The collection of operations: checked once (unique ids, routes and tool names; declared fields consistent),
 * then read by every adapter.
 */
import { requiresKey, type AnyOperation, type ServedOperations } from "./types";
import { API_BASE_PATH } from "../platform/versioning/versions";

/** The path an operation is served at, OpenAPI style (`/api/agent/v1/discover/markets/{address}`). */
export function fullPath(op: AnyOperation): string {
  return op.root ? op.path : `${API_BASE_PATH}${op.path === "/" ? "" : op.path}`;
}

/** Hono route syntax of a path: `{name}` becomes `:name`. */
export function honoPath(openApiPath: string): string {
  return openApiPath.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");
}

export class Registry implements ServedOperations {
  readonly operations: readonly AnyOperation[];
  private readonly byId = new Map<string, AnyOperation>();
  private readonly byTool = new Map<string, AnyOperation>();

  constructor(operations: readonly AnyOperation[]) {
    const routes = new Set<string>();
    for (const op of operations) {
      if (this.byId.has(op.id)) throw new Error(`registry: two operations have id ${op.id}`);
      const route = `${op.method} ${honoPath(fullPath(op)).replace(/:[A-Za-z0-9_]+/g, ":")}`;
      if (routes.has(route)) throw new Error(`registry: two operations serve ${route}`);
      routes.add(route);
      if (op.mcpTool) {
        if (!/^svc_[a-z0-9_]+$/.test(op.mcpTool)) throw new Error(`registry: tool name ${op.mcpTool} of ${op.id} must look like svc_name`);
        if (this.byTool.has(op.mcpTool)) throw new Error(`registry: two operations use tool ${op.mcpTool}`);
        this.byTool.set(op.mcpTool, op);
      }
      if (op.method === "GET" && op.request.body) throw new Error(`registry: GET ${op.id} declares a body`);
      if (requiresKey(op.permission) && op.rateClass === undefined) throw new Error(`registry: ${op.id} lacks a rate class`);
      this.byId.set(op.id, op);
    }
    this.operations = operations;
  }

  get(id: string): AnyOperation | undefined {
    return this.byId.get(id);
  }

  byToolName(name: string): AnyOperation | undefined {
    return this.byTool.get(name);
  }

  /** The methods served at a concrete path, for 405 answers. */
  methodsAt(path: string): string[] {
    const methods = new Set<string>();
    for (const op of this.operations) {
      const pattern = new RegExp(
        `^${fullPath(op)
          .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
          .replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, "[^/]+")}$`,
      );
      if (pattern.test(path)) methods.add(op.method);
    }
    return [...methods];
  }
}
