/**
 * A minimal SMTP sink on 127.0.0.1 (RFC 5321 subset: HELO/EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT), standing in for
 * the mail catcher a developer points SMTP_URL at, so a test can read the owner's claim mail while `npm start`
 * holds the database. Bodies are kept raw; `text()` undoes quoted-printable soft breaks and escapes.
 */
import { createServer, type AddressInfo, type Socket } from "node:net";

export interface SunkMail {
  from: string;
  to: string[];
  raw: string;
}

export interface MailSink {
  url: string;
  mails: SunkMail[];
  /** Waits (bounded) for a mail to `to` whose decoded text matches `re`; returns the match. */
  waitFor(to: string, re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  close(): Promise<void>;
}

/** The message with quoted-printable soft line breaks and =XX escapes undone (harmless on 7bit bodies). */
export function decodedText(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startMailSink(): Promise<MailSink> {
  const mails: SunkMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let envelope: { from: string; to: string[] } = { from: "", to: [] };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 e2e-mail-sink ESMTP");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          const raw = buffer.slice(0, end).replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          inData = false;
          mails.push({ ...envelope, raw });
          envelope = { from: "", to: [] };
          reply("250 OK queued");
          continue;
        }
        const nl = buffer.indexOf("\r\n");
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 e2e-mail-sink");
        else if (verb === "MAIL") {
          envelope.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
          reply("250 OK");
        } else if (verb === "RCPT") {
          envelope.to.push((/<([^>]*)>/.exec(line)?.[1] ?? "").toLowerCase());
          reply("250 OK");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 end with <CRLF>.<CRLF>");
        } else if (verb === "RSET") {
          envelope = { from: "", to: [] };
          reply("250 OK");
        } else if (verb === "NOOP") reply("250 OK");
        else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
          return;
        } else reply("502 command not implemented");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, re, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        for (const m of mails) {
          const hit = m.to.includes(to.toLowerCase()) ? decodedText(m.raw).match(re) : null;
          if (hit) return hit;
        }
        if (Date.now() > until) throw new Error(`no mail to ${to} matching ${re} within ${timeoutMs} ms (${mails.length} mails sunk)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
