/**
 * Requests Node's HTTP parser refuses before the app sees them (a request line and headers over Node's 16 KiB
 * `maxHeaderSize`, bytes that are not HTTP/1.1) still get an RFC 9457 problem, as every other refusal does: 431
 * HEADERS_TOO_LARGE, or 400 INVALID_PAYLOAD. Node's default answer is a bare status line.
 */
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../platform/errors/api-error";
import { problemOf } from "../platform/errors/problem";

export function answerClientErrors(server: Server, origin: () => string): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or timed-out connection has nobody to answer (Node answers a timeout with 408 itself when it can).
    if (err.code === "ECONNRESET" || err.code === "ERR_HTTP_REQUEST_TIMEOUT" || !socket.writable) {
      socket.destroy();
      return;
    }
    const e =
      err.code === "HPE_HEADER_OVERFLOW"
        ? new ApiError("HEADERS_TOO_LARGE", "the request line and headers exceed 16384 bytes; send long values in a JSON body")
        : new ApiError("INVALID_PAYLOAD", `the request is not valid HTTP/1.1 (${err.code ?? "parse error"})`);
    const body = JSON.stringify(problemOf(e, `${origin()}/`));
    socket.end(
      `HTTP/1.1 ${e.status} ${e.title}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
