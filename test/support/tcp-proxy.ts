/**
 * A TCP proxy that fault tests put in front of a real server (the Hardhat node, a Postgres server) and cut at will:
 *  - `cut("refuse")` closes the listener and resets every open connection: clients get ECONNREFUSED / ECONNRESET,
 *    as when the server's host is down;
 *  - `cut("blackhole")` keeps accepting but forwards nothing and answers nothing: clients hang until their own
 *    timeout, as on a partitioned network;
 *  - `restore()` forwards again on the same port.
 * It counts the connections it forwarded, so a test can show that traffic flowed at all.
 */
import { createServer, connect, type Server, type Socket } from "node:net";

export type CutMode = "refuse" | "blackhole";

export interface TcpProxy {
  port: number;
  url(scheme: string, path?: string): string;
  /** Connections forwarded so far. */
  readonly forwarded: number;
  readonly state: "open" | CutMode;
  cut(mode?: CutMode): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host?: string; port: number }, port = 0): Promise<TcpProxy> {
  const host = target.host ?? "127.0.0.1";
  const live = new Set<Socket>();
  let state: "open" | CutMode = "open";
  let forwarded = 0;
  const onConnection = (client: Socket) => {
    live.add(client);
    client.on("close", () => live.delete(client));
    client.on("error", () => {});
    if (state === "blackhole") return; // held open, never answered
    forwarded++;
    const upstream = connect(target.port, host);
    live.add(upstream);
    upstream.on("close", () => live.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  };
  let server: Server = createServer(onConnection);
  const listen = (p: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(p, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
    });
  const bound = await listen(port);
  const resetAll = () => {
    for (const s of live) s.resetAndDestroy?.() ?? s.destroy();
    live.clear();
  };
  const ensureListening = async () => {
    if (server.listening) return;
    server = createServer(onConnection);
    // The port was ours a moment ago; retry briefly in case the kernel still holds it.
    for (let i = 0; ; i++) {
      try {
        await listen(bound);
        return;
      } catch (err) {
        if (i > 50) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const stopListening = () => new Promise<void>((r) => (server.listening ? server.close(() => r()) : r()));
  return {
    port: bound,
    url: (scheme, path = "") => `${scheme}://127.0.0.1:${bound}${path}`,
    get forwarded() {
      return forwarded;
    },
    get state() {
      return state;
    },
    async cut(mode = "refuse") {
      state = mode;
      resetAll();
      if (mode === "refuse") await stopListening();
      else await ensureListening();
    },
    async restore() {
      resetAll();
      await ensureListening();
      state = "open";
    },
    async close() {
      state = "refuse";
      resetAll();
      await stopListening();
    },
  };
}
