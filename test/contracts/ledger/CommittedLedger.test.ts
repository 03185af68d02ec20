import { expect } from "chai";
import hre from "hardhat";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { committedLedgerAbi } from "../../../generated/abis";
import { expectRevert } from "../../support/revert";
import { type Abi, encodePacked, keccak256, type AbiFunction, type AbiEvent, type Hex, type Address, getAddress } from "viem";

const ZERO = `0x${"0".repeat(64)}` as Hex;

async function deployFixture() {
  const [owner, operator, treasury, stranger, nextOperator] = await hre.viem.getWalletClients();
  const ledger = await hre.viem.deployContract("CommittedLedger", [owner.account.address, operator.account.address, treasury.account.address]);
  const asOperator = await hre.viem.getContractAt("CommittedLedger", ledger.address, { client: { wallet: operator } });
  const asStranger = await hre.viem.getContractAt("CommittedLedger", ledger.address, { client: { wallet: stranger } });
  const asNext = await hre.viem.getContractAt("CommittedLedger", ledger.address, { client: { wallet: nextOperator } });
  return { ledger, asOperator, asStranger, asNext, owner, operator, treasury, stranger, nextOperator, publicClient: await hre.viem.getPublicClient() };
}

const ledgerAbi = committedLedgerAbi as unknown as Abi;
const ownableErrors = [{ type: "error", name: "OwnableUnauthorizedAccount", inputs: [{ name: "account", type: "address" }] }] as const;
const expectCustomError = (p: Promise<unknown>, name: string) => expectRevert(p, [...ledgerAbi, ...ownableErrors] as Abi, name);

/** One ABI item as `kind name(type [indexed] name, ...) [mutability] [returns (...)]`, tuple components named too. */
type Param = { type: string; name?: string; indexed?: boolean; components?: readonly Param[] };
const describeParam = (p: Param): string =>
  [p.components ? `(${p.components.map(describeParam).join(", ")})${p.type.slice("tuple".length)}` : p.type, p.indexed ? "indexed" : "", p.name ?? ""]
    .filter(Boolean)
    .join(" ");
function describeItem(x: AbiFunction | AbiEvent): string {
  const head = `${x.type} ${x.name}(${x.inputs.map(describeParam).join(", ")})`;
  if (x.type === "event") return head;
  const mutability = x.stateMutability === "nonpayable" ? "" : ` ${x.stateMutability}`;
  return `${head}${mutability}${x.outputs.length ? ` returns (${x.outputs.map(describeParam).join(", ")})` : ""}`;
}

// The spec's "Committed ledger contract" and "Events" parts, byte for byte (names, types, indexed flags).
const MATCH = "(address maker, address taker, uint64 marketId, uint8 side, uint8 kind, uint128 shares, uint32 priceBps, uint128 fee)[]";
const CREDIT = "(address account, uint256 id, int128 delta, uint8 reason)[]";
const SPEC_FUNCTIONS = [
  "function batchNonce() view returns (uint64)",
  "function ledgerRoot() view returns (bytes32)",
  "function operator() view returns (address)",
  "function journalCommitment() view returns (bytes32)",
  `function commitBatch(uint64 expectedNonce, bytes32 prevRoot, bytes32 newRoot, ${MATCH} matches, ${CREDIT} credits, bool emitEvents)`,
  "function commitJournalBatch(uint64 expectedNonce, bytes32 prevRoot, bytes32 newRoot, bytes32 prevJournalCommitment, bytes32 payloadHash, bytes payload)",
  "function verifyBalance(address account, uint256 assetId, int256 balance, bytes32[] proof) view returns (bool)",
];
const SPEC_EVENTS = [
  "event BatchCommitted(uint64 indexed nonce, bytes32 indexed newRoot, uint32 matchCount, uint32 creditCount, bool eventsEmitted)",
  "event JournalBatchCommitted(uint64 indexed nonce, bytes32 indexed newRoot, bytes32 indexed journalCommitment, bytes32 payloadHash, bytes payload)",
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
];
// Beyond the spec: two-step operator rotation, fee recipient, and OpenZeppelin Ownable. Listed in docs/contracts.md;
// anything added to the contract must be added here and there.
const EXTRA_FUNCTIONS = [
  "function pendingOperator() view returns (address)",
  "function treasury() view returns (address)",
  "function transferOperator(address newOperator)",
  "function acceptOperator()",
  "function owner() view returns (address)",
  "function transferOwnership(address newOwner)",
  "function renounceOwnership()",
];
const EXTRA_EVENTS = [
  "event OperatorTransferStarted(address indexed currentOperator, address indexed newOperator)",
  "event OperatorTransferred(address indexed previousOperator, address indexed newOperator)",
  "event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)",
];

/** The spec's root rule, written independently: sorted leaves, sorted-pair nodes, odd node promoted. */
function leafOf(account: Address, assetId: bigint, balance: bigint): Hex {
  return keccak256(keccak256(encodePacked(["address", "uint256", "int256"], [account, assetId, balance])));
}
function pairHash(a: Hex, b: Hex): Hex {
  return BigInt(a) < BigInt(b) ? keccak256(`0x${a.slice(2)}${b.slice(2)}`) : keccak256(`0x${b.slice(2)}${a.slice(2)}`);
}
function rootAndProof(leaves: Hex[], index: number): { root: Hex; proof: Hex[] } {
  let level = leaves;
  const proof: Hex[] = [];
  let i = index;
  while (level.length > 1) {
    const next: Hex[] = [];
    for (let k = 0; k < level.length; k += 2) next.push(k + 1 < level.length ? pairHash(level[k], level[k + 1]) : level[k]);
    if ((i ^ 1) < level.length) proof.push(level[i ^ 1]);
    i >>= 1;
    level = next;
  }
  return { root: level[0] ?? ZERO, proof };
}

async function commitRoot(f: Awaited<ReturnType<typeof deployFixture>>, newRoot: Hex) {
  const nonce = (await f.ledger.read.batchNonce()) + 1n;
  const prevRoot = await f.ledger.read.ledgerRoot();
  const prevCommitment = await f.ledger.read.journalCommitment();
  const payload = "0x504d4a35" as Hex;
  await f.asOperator.write.commitJournalBatch([nonce, prevRoot, newRoot, prevCommitment, keccak256(payload), payload]);
}

describe("CommittedLedger", () => {
  it("has exactly the spec's functions and events plus the documented extras, with the spec's names and indexed flags", () => {
    const abi = hre.artifacts.readArtifactSync("CommittedLedger").abi as unknown as Abi;
    const fns = abi
      .filter((x): x is AbiFunction => x.type === "function")
      .map(describeItem)
      .sort();
    const events = abi
      .filter((x): x is AbiEvent => x.type === "event")
      .map(describeItem)
      .sort();
    expect(fns).to.deep.equal([...SPEC_FUNCTIONS, ...EXTRA_FUNCTIONS].sort());
    expect(events).to.deep.equal([...SPEC_EVENTS, ...EXTRA_EVENTS].sort());
  });

  it("chains journal commitments and advances nonce and root", async () => {
    const f = await deployFixture();
    const payload = "0x504d4a350100" as Hex;
    const root1 = keccak256("0x01");
    await f.asOperator.write.commitJournalBatch([1n, ZERO, root1, ZERO, keccak256(payload), payload]);
    const expected = keccak256(encodePacked(["bytes32", "uint64", "bytes32", "bytes32"], [ZERO, 1n, root1, keccak256(payload)]));
    expect(await f.ledger.read.journalCommitment()).to.equal(expected);
    expect(await f.ledger.read.batchNonce()).to.equal(1n);
    expect(await f.ledger.read.ledgerRoot()).to.equal(root1);
    const logs = await f.ledger.getEvents.JournalBatchCommitted();
    expect(logs[0].args.journalCommitment).to.equal(expected);
    expect(logs[0].args.payload).to.equal(payload);
  });

  it("refuses stale, duplicate and forged batches and changes nothing", async () => {
    const f = await deployFixture();
    const payload = "0xabcd" as Hex;
    const h = keccak256(payload);
    const r1 = keccak256("0x01");
    await expectCustomError(f.asStranger.write.commitJournalBatch([1n, ZERO, r1, ZERO, h, payload]), "LedgerUnauthorizedOperator");
    await expectCustomError(f.asStranger.write.commitBatch([1n, ZERO, r1, [], [], false]), "LedgerUnauthorizedOperator");
    await expectCustomError(f.asOperator.write.commitJournalBatch([2n, ZERO, r1, ZERO, h, payload]), "LedgerStaleNonce");
    await expectCustomError(f.asOperator.write.commitJournalBatch([1n, r1, r1, ZERO, h, payload]), "LedgerStaleRoot");
    await expectCustomError(f.asOperator.write.commitJournalBatch([1n, ZERO, r1, r1, h, payload]), "LedgerStaleJournalCommitment");
    await expectCustomError(f.asOperator.write.commitJournalBatch([1n, ZERO, r1, ZERO, keccak256("0x00"), payload]), "LedgerPayloadHashMismatch");
    expect(await f.ledger.read.batchNonce()).to.equal(0n);
    expect(await f.ledger.read.ledgerRoot()).to.equal(ZERO);
    await f.asOperator.write.commitJournalBatch([1n, ZERO, r1, ZERO, h, payload]);
    const c1 = await f.ledger.read.journalCommitment();
    await expectCustomError(f.asOperator.write.commitJournalBatch([1n, ZERO, r1, ZERO, h, payload]), "LedgerStaleNonce"); // duplicate
    await expectCustomError(f.asOperator.write.commitBatch([1n, ZERO, r1, [], [], false]), "LedgerStaleNonce");
    await expectCustomError(f.asOperator.write.commitBatch([2n, ZERO, r1, [], [], false]), "LedgerStaleRoot");
    expect(await f.ledger.read.journalCommitment()).to.equal(c1);
    expect(await f.ledger.read.batchNonce()).to.equal(1n);
  });

  it("emits every movement of matches and credits as ERC-1155 transfers when asked", async () => {
    const f = await deployFixture();
    const [maker, taker, acct] = [f.stranger.account.address, f.nextOperator.account.address, f.owner.account.address];
    const matches = [
      { maker, taker, marketId: 7n, side: 0, kind: 0, shares: 20_000n, priceBps: 6_000, fee: 12n },
      { maker, taker, marketId: 7n, side: 1, kind: 2, shares: 10_000n, priceBps: 3_000, fee: 0n },
    ];
    const credits = [
      { account: acct, id: 0n, delta: 5_000_000n, reason: 0 },
      { account: acct, id: 0n, delta: -1_000n, reason: 8 },
    ];
    await f.asOperator.write.commitBatch([1n, ZERO, keccak256("0x02"), matches, credits, true]);
    const transfers = (await f.ledger.getEvents.TransferSingle({}, { fromBlock: 0n })).map((l) => [
      getAddress(l.args.from!),
      getAddress(l.args.to!),
      l.args.id,
      l.args.value,
    ]);
    const Z = "0x0000000000000000000000000000000000000000";
    const T = getAddress(f.treasury.account.address);
    const [M, K, A] = [getAddress(maker), getAddress(taker), getAddress(acct)];
    expect(transfers).to.deep.equal([
      [K, M, 0n, 12_000n],
      [M, K, (7n << 8n) | 0n, 20_000n],
      [K, T, 0n, 12n],
      [M, Z, 0n, 3_000n],
      [K, Z, 0n, 7_000n],
      [Z, M, (7n << 8n) | 1n, 10_000n],
      [Z, K, (7n << 8n) | 0n, 10_000n],
      [Z, A, 0n, 5_000_000n],
      [A, Z, 0n, 1_000n],
    ]);
    // Every movement is a TransferSingle; this implementation never groups movements into a TransferBatch.
    expect(await f.ledger.getEvents.TransferBatch({}, { fromBlock: 0n })).to.deep.equal([]);
    const [batch] = await f.ledger.getEvents.BatchCommitted();
    expect([batch.args.nonce, batch.args.matchCount, batch.args.creditCount, batch.args.eventsEmitted]).to.deep.equal([1n, 2, 2, true]);
    await expectCustomError(f.asOperator.write.commitBatch([2n, keccak256("0x02"), ZERO, [{ ...matches[0], kind: 4 }], [], false]), "LedgerInvalidMatch");
    await expectCustomError(f.asOperator.write.commitBatch([2n, keccak256("0x02"), ZERO, [], [{ ...credits[0], delta: 0n }], false]), "LedgerInvalidCredit");
  });

  it("rotates the operator in two steps", async () => {
    const f = await deployFixture();
    await expectCustomError(f.asStranger.write.transferOperator([f.stranger.account.address]), "OwnableUnauthorizedAccount");
    await expectCustomError(f.ledger.write.transferOperator(["0x0000000000000000000000000000000000000000"]), "LedgerZeroAddress");
    const proposeHash = await f.ledger.write.transferOperator([f.nextOperator.account.address]);
    expect(getAddress(await f.ledger.read.operator())).to.equal(getAddress(f.operator.account.address));
    expect(getAddress(await f.ledger.read.pendingOperator())).to.equal(getAddress(f.nextOperator.account.address));
    await expectCustomError(f.asStranger.write.acceptOperator(), "LedgerUnauthorizedPendingOperator");
    const acceptHash = await f.asNext.write.acceptOperator();
    expect(getAddress(await f.ledger.read.operator())).to.equal(getAddress(f.nextOperator.account.address));
    expect(await f.ledger.read.pendingOperator()).to.equal("0x0000000000000000000000000000000000000000");
    for (const [entry, hash] of [
      ["transferOperator", proposeHash],
      ["acceptOperator", acceptHash],
    ] as const) {
      console.log(JSON.stringify({ contract: "CommittedLedger", entry, gas: Number((await f.publicClient.waitForTransactionReceipt({ hash })).gasUsed) }));
    }
    await expectCustomError(f.asOperator.write.commitBatch([1n, ZERO, ZERO, [], [], false]), "LedgerUnauthorizedOperator");
  });

  it("refuses a zero operator or treasury at deployment", async () => {
    const [owner, operator] = await hre.viem.getWalletClients();
    const zero = "0x0000000000000000000000000000000000000000";
    await expectCustomError(hre.viem.deployContract("CommittedLedger", [owner.account.address, zero, operator.account.address]), "LedgerZeroAddress");
    await expectCustomError(hre.viem.deployContract("CommittedLedger", [owner.account.address, operator.account.address, zero]), "LedgerZeroAddress");
  });

  it("verifies proofs of a random 1,000-leaf ledger built off chain, and refuses a wrong balance", async () => {
    const f = await deployFixture();
    let seed = 12345n;
    const rnd = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n));
    const rows: { account: Address; assetId: bigint; balance: bigint }[] = [];
    for (let i = 0; i < 1000; i++) {
      const account = getAddress(`0x${(rnd() % (1n << 64n)).toString(16).padStart(40, "0")}`);
      const balance = (rnd() % 1_000_000_000n) - 100_000_000n || 1n;
      rows.push({ account, assetId: (BigInt(i % 50) << 8n) | BigInt(i % 2), balance });
    }
    rows.sort((a, b) => (BigInt(a.account) === BigInt(b.account) ? (a.assetId < b.assetId ? -1 : 1) : BigInt(a.account) < BigInt(b.account) ? -1 : 1));
    const leaves = rows.map((r) => leafOf(r.account, r.assetId, r.balance));
    const { root } = rootAndProof(leaves, 0);
    await commitRoot(f, root);
    for (const i of [0, 1, 2, 499, 998, 999, 511, 512]) {
      const { proof } = rootAndProof(leaves, i);
      const r = rows[i];
      expect(await f.ledger.read.verifyBalance([r.account, r.assetId, r.balance, proof])).to.equal(true);
      expect(await f.ledger.read.verifyBalance([r.account, r.assetId, r.balance + 1n, proof])).to.equal(false);
    }
  });

  it("verifies the decoder's shared Merkle test vectors (decoder/test-vectors/merkle.json)", async () => {
    const vectors = JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "decoder", "test-vectors", "merkle.json"), "utf8")) as {
      cases: { name: string; root: Hex; leaves: { account: Address; assetId: string; balance: string; proof: Hex[] }[] }[];
    };
    let checked = 0;
    for (const c of vectors.cases) {
      if (c.leaves.length === 0) continue;
      const f = await deployFixture();
      await commitRoot(f, c.root);
      for (const l of c.leaves) {
        expect(await f.ledger.read.verifyBalance([l.account, BigInt(l.assetId), BigInt(l.balance), l.proof]), `${c.name} ${l.account}`).to.equal(true);
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(5);
  });
});
