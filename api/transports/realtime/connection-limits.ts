/**
 * Open streams per agent on this instance (SSE streams and authenticated WebSockets count alike). Past the limit a new
 * stream is refused with RATE_LIMITED, so one key cannot hold the instance's sockets. Per instance: with several
 * instances behind a balancer an agent may hold the limit on each.
 */
import { ApiError } from "../../platform/errors/api-error";

export class ConnectionLimits {
  private readonly open = new Map<string, number>();
  constructor(readonly perAgent: number) {}

  /** Takes one slot or throws RATE_LIMITED; returns the release function (idempotent). */
  acquire(agentId: string): () => void {
    const n = this.open.get(agentId) ?? 0;
    if (n >= this.perAgent) {
      throw new ApiError(
        "RATE_LIMITED",
        `at most ${this.perAgent} open streams per agent; close one first`,
        { limit: this.perAgent, retryAfter: 1 },
        { "Retry-After": "1" },
      );
    }
    this.open.set(agentId, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(agentId) ?? 1) - 1;
      if (left <= 0) this.open.delete(agentId);
      else this.open.set(agentId, left);
    };
  }

  countOf(agentId: string): number {
    return this.open.get(agentId) ?? 0;
  }
}
