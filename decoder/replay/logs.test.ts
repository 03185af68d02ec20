import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Log, PublicClient } from "viem";
import { committedLedgerAbi } from "./abi";
import { readLedgerLogs } from "./logs";

/** A client whose getLogs answers at most `maxBlocks` blocks at a time, like an RPC response over the client's cap. */
function cappedClient(maxBlocks: bigint, logsAt: Map<bigint, Log[]>, calls: [bigint, bigint][]): PublicClient {
  const tooLarge = Object.assign(new Error("HTTP response body exceeded the size limit."), { name: "ResponseBodyTooLargeError" });
  return {
    async getLogs({ fromBlock, toBlock }: { fromBlock: bigint; toBlock: bigint }) {
      calls.push([fromBlock, toBlock]);
      if (toBlock - fromBlock + 1n > maxBlocks) throw new Error("request failed", { cause: tooLarge });
      const out: Log[] = [];
      for (let b = fromBlock; b <= toBlock; b++) out.push(...(logsAt.get(b) ?? []));
      return out;
    },
  } as unknown as PublicClient;
}

describe("readLedgerLogs", () => {
  it("reads a range whose response is too large again in halves, down to single blocks, in chain order", async () => {
    const abi = committedLedgerAbi();
    // An event the ABI does not know decodes to nothing: the test counts calls and ranges, not events.
    const calls: [bigint, bigint][] = [];
    const logs = await readLedgerLogs(cappedClient(3n, new Map(), calls), abi, "0x0000000000000000000000000000000000000001", 0n, 19n, 10n);
    assert.deepEqual(logs, []);
    const answered = calls.filter(([a, b]) => b - a + 1n <= 3n);
    const covered = answered.flatMap(([a, b]) => Array.from({ length: Number(b - a + 1n) }, (_, i) => a + BigInt(i)));
    assert.deepEqual(
      covered,
      Array.from({ length: 20 }, (_, i) => BigInt(i)),
      "every block read once, in order",
    );
  });

  it("a single block too large, or any other error, is thrown", async () => {
    const calls: [bigint, bigint][] = [];
    await assert.rejects(
      readLedgerLogs(cappedClient(0n, new Map(), calls), committedLedgerAbi(), "0x0000000000000000000000000000000000000001", 5n, 6n, 10n),
      /request failed/,
    );
    assert.deepEqual(calls.at(-1), [5n, 5n]);
  });
});
