import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { progressBar } from "./progress";

/** A writable that claims to be a terminal and keeps what was written. */
function fakeTerminal(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { stream, text: () => chunks.join("") };
}

describe("progress bar", () => {
  it("shows the getLogs scan in blocks, then the batches applied", () => {
    const { stream, text } = fakeTerminal(true);
    const bar = progressBar("verify", stream);
    bar.onScan(2000n, 5000n); // start renders at once
    bar.onScan(5000n, 5000n);
    bar.onProgress(1, 3);
    bar.onProgress(3, 3);
    bar.stop(); // stop renders the final state
    const out = text();
    assert.match(out, /verify scan \[[^\]]*\] \d+\/5000 blocks/);
    assert.match(out, /verify apply \[[^\]]*\] 3\/3 batches/);
  });

  it("writes nothing when the stream is not a terminal", () => {
    const { stream, text } = fakeTerminal(false);
    const bar = progressBar("verify", stream);
    bar.onScan(1n, 2n);
    bar.onProgress(1, 1);
    bar.stop();
    assert.equal(text(), "");
  });
});
