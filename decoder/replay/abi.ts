/**
 * The CommittedLedger ABI, from the generated module (`hardhat compile` writes generated/abis.ts).
 * Loaded at run time so the decoder library (codec, state, proofs) works and typechecks even before the
 * contracts are compiled; a replay without it stops with a clear message.
 */
import type { Abi } from "viem";
import { ReplayError } from "./errors";

let cached: Abi | null = null;

/** `committedLedgerAbi` from generated/abis.ts. */
export function committedLedgerAbi(): Abi {
  if (cached) return cached;
  let mod: { committedLedgerAbi?: Abi };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require("../../generated/abis");
  } catch (cause) {
    throw new ReplayError("BAD_INPUT", "generated/abis.ts is missing: run `npx hardhat compile` first", cause);
  }
  if (!mod.committedLedgerAbi) throw new ReplayError("BAD_INPUT", "generated/abis.ts has no committedLedgerAbi: compile the CommittedLedger contract");
  cached = mod.committedLedgerAbi;
  return cached;
}
