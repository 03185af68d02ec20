/**
 * The public commitment to a sealed ballot (docs/lifecycle.md, "Ballots"): published in the ballot's STAKE_LOCK,
 * checked against the BALLOT_REVEAL at the deadline. The engine computes it with this same function.
 */
import { encodePacked, keccak256, type Address, type Hex } from "viem";
import { normalizeAccount } from "../assets";

/** What a ballot commits to: the market, the vote session, the voter, the outcome voted and the service's salt. */
export interface BallotPreimage {
  readonly marketId: bigint;
  readonly session: number;
  readonly account: Address;
  readonly outcome: number;
  readonly salt: Hex;
}

/**
 * keccak256(abi.encodePacked("PMJ5/ballot", uint64 marketId, uint16 session, address voter, uint8 outcome, bytes32 salt)),
 * lower-case hex. Throws (viem) when a value does not fit its type.
 */
export function ballotHashOf(ballot: BallotPreimage): Hex {
  return keccak256(
    encodePacked(
      ["string", "uint64", "uint16", "address", "uint8", "bytes32"],
      ["PMJ5/ballot", ballot.marketId, ballot.session, normalizeAccount(ballot.account), ballot.outcome, ballot.salt],
    ),
  );
}
