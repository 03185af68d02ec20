/**
 * `npm run ledger:demo -- --rpc <url> [--batches N] [--ledger <address>] [--seed S] [--legacy]`
 * Commits N batches of random but valid journal operations to a CommittedLedger (deploying one when no
 * --ledger is given) and prints one JSON line per batch: {"txHash","nonce","root","ledger"}, where `ledger` is the
 * address of the ledger committed to (the deployed one when no --ledger was given), so
 * `npx decode <txHash> --rpc <url>` (which replays the ledger the transaction calls) and `--ledger` can find it.
 * The demo itself is test/support/ledger-demo.ts (tests use it too).
 *
 * DEV ONLY: signs with Hardhat's well-known development keys. Never point it at a chain where they hold value.
 */
import { parseArgs } from "node:util";
import type { Address } from "viem";
import { runLedgerDemo } from "../test/support/ledger-demo";

const USAGE = "usage: npm run ledger:demo -- --rpc <url> [--batches N] [--ledger <address>] [--seed S] [--legacy]";

const { values } = parseArgs({
  options: {
    rpc: { type: "string" },
    batches: { type: "string" },
    ledger: { type: "string" },
    seed: { type: "string" },
    legacy: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.rpc) {
  console.error(USAGE);
  process.exit(2);
}
runLedgerDemo(
  {
    rpc: values.rpc,
    batches: Number(values.batches ?? 3),
    ledger: values.ledger as Address | undefined,
    seed: values.seed ? Number(values.seed) : undefined,
    legacy: values.legacy,
  },
  (b) => console.log(JSON.stringify(b)),
).then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`ledger:demo: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
