import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A free TCP port on 127.0.0.1 below Linux's ephemeral range (32768–60999), for a test that must take the same port
 * again after its holder died: a port from `freePort` is in that range, and once free it can be handed to any
 * process's outgoing connection as its local port, which then keeps a listener off it.
 */
export async function freeFixedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once("error", () => resolve(false));
      srv.listen({ port, host: "127.0.0.1", exclusive: true }, () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
