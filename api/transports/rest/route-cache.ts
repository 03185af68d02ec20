/**
 * The app's router: Hono's TrieRouter behind a cache of match results by method and path.
 *
 * Why: Hono's fast RegExpRouter refuses our routes (a static segment beside a parameter at the same place, e.g.
 * `/discover/markets/exists` and `/discover/markets/:address`), so the SmartRouter falls back to the TrieRouter, whose
 * match walks the trie and sorts the matched handlers on every request: at ~600 routes that was a few percent of an
 * order's CPU and its largest single allocation. A match depends only on the method, the path and the routes, and
 * Hono only reads it, so it is kept per (method, path) and dropped whenever a route is added. The cache is bounded:
 * paths carry ids (and anyone can send any path), so when full it starts over.
 */
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

const MAX_ENTRIES = 2_000;

export class RouteCache<T> implements Router<T> {
  readonly name: string;
  readonly #inner: Router<T>;
  readonly #matches = new Map<string, Result<T>>();

  constructor(inner: Router<T> = new TrieRouter<T>()) {
    this.#inner = inner;
    this.name = `RouteCache(${inner.name})`;
  }

  /** Matches kept now. */
  get size(): number {
    return this.#matches.size;
  }

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let result = this.#matches.get(key);
    if (result === undefined) {
      result = this.#inner.match(method, path);
      if (this.#matches.size >= MAX_ENTRIES) this.#matches.clear();
      this.#matches.set(key, result);
    }
    return result;
  }
}
