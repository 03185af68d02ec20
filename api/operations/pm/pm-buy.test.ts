/**
 * POST /pm/buy over real HTTP against the in-process service and a real Hardhat node with the contracts deployed:
 * the 402 requirements, a paid purchase (official x402 client: @x402/core + @x402/evm) that moves USDC on chain and
 * credits the bundle once, the idempotent replay, and refusals that change nothing.
 */
import { strict as assert } from "node:assert";
import { randomBytes, randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { createPublicClient, createWalletClient, getAddress, http, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } from "../../../relayer/dev-accounts";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { createAgent } from "../../domain/auth/agents";
import { issueKey } from "../../domain/auth/api-keys";
import { scopesForTier } from "../../domain/auth/scopes";
import { deploymentFile } from "../../domain/protocol/deployment";
import { COLLATERAL_ASSET } from "../../../decoder";
import { testUSDCAbi } from "../../../generated/abis";
import { manualClock } from "../../../relayer/clock";
import { deployAll } from "../../../relayer/deploy";
import { startLocalChain } from "../../../scripts/stack/chain";
import { stopChild, type Child } from "../../../scripts/stack/children";
import { freePort } from "../../../test/support/ports";
import { startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "../../domain/pm/x402/exact-evm";
import { rpcChain } from "../../../relayer/rpc-chain";

const TREASURY = getAddress("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
const GRANT = 1_000_000_000n;
const BUNDLE_PM = 1_000;
const PRICE = 1_000_000n; // $1.00 in USDC base units
const FILLS = 500; // one per 2 PM

describe("POST /pm/buy (x402, USDC on a local chain)", () => {
  // Its own chain id, so deployments/<chainId>.json never touches the development one (as indexer/test-stack.ts).
  const chainId = 920_000 + Math.floor(Math.random() * 70_000);
  let chain: Child;
  let t: TestService;
  let client: ReturnType<typeof createPublicClient>;
  let usdc: Address;
  let buyer: LocalAgent;
  let buyerKey: Hex;

  const call = async (body: unknown, opts: { key?: string; idem?: string; payment?: string | Record<string, string> } = {}) => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      authorization: `Bearer ${opts.key ?? buyer.apiKey}`,
      "idempotency-key": opts.idem ?? randomUUID(),
    };
    if (typeof opts.payment === "string") headers["PAYMENT-SIGNATURE"] = opts.payment;
    else if (opts.payment) Object.assign(headers, opts.payment);
    const res = await fetch(`${t.svc.baseUrl}/pm/buy`, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : {}) as Json };
  };
  const usdcOf = (who: Address) => client.readContract({ address: usdc, abi: testUSDCAbi, functionName: "balanceOf", args: [who] });
  const engine = () => t.svc.services.venue!.exchange.engine;
  const account = () => buyer.ledgerAccount.toLowerCase() as Address;

  /** Everything a refused payment must leave as it was. */
  const snapshot = async () => ({
    payerUsdc: await usdcOf(getAddress(buyer.walletAddress)),
    treasuryUsdc: await usdcOf(TREASURY),
    pm: engine().balance(account(), COLLATERAL_ASSET).total,
    fills: engine().allowance(account(), t.clock.now()).remaining,
    journal: t.svc.services.venue!.exchange.nextSeq,
    rows: Number((await t.svc.ctx.db.query<{ n: string }>(`SELECT count(*) AS n FROM pm_purchases`))[0]!.n),
  });

  /** The 402's requirements, read the way an x402 client reads them (the PAYMENT-REQUIRED header). */
  const requirementsFor = async (pm: number): Promise<PaymentRequirements> => {
    const res = await call({ pm });
    assert.equal(res.status, 402, JSON.stringify(res.json));
    return decodePaymentRequiredHeader(res.headers.get("payment-required")!).accepts[0]!;
  };

  /** A hand-made EIP-3009 payment for the refusal cases; `signer` defaults to the payer. */
  const handPayment = async (
    req: PaymentRequirements,
    o: { value?: bigint; to?: Address; validBefore?: bigint; signer?: Hex } = {},
  ): Promise<{ header: string; nonce: Hex }> => {
    const payer = privateKeyToAccount(buyerKey);
    const nonce = `0x${randomBytes(32).toString("hex")}` as Hex;
    const authorization = {
      from: payer.address,
      to: o.to ?? getAddress(req.payTo),
      value: o.value ?? BigInt(req.amount),
      validAfter: 0n,
      validBefore: o.validBefore ?? BigInt(Math.floor(t.clock.now() / 1000) + 300),
      nonce,
    };
    const signature = await privateKeyToAccount(o.signer ?? buyerKey).signTypedData({
      domain: { name: req.extra.name as string, version: req.extra.version as string, chainId, verifyingContract: getAddress(req.asset) },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: "TransferWithAuthorization",
      message: authorization,
    });
    const payload: PaymentPayload = {
      x402Version: 2,
      accepted: { ...req, amount: authorization.value.toString(), payTo: authorization.to },
      payload: {
        signature,
        authorization: { ...authorization, value: authorization.value.toString(), validAfter: "0", validBefore: authorization.validBefore.toString() },
      },
    };
    return { header: encodePaymentSignatureHeader(payload), nonce };
  };

  before(async () => {
    const port = await freePort();
    const rpcUrl = `http://127.0.0.1:${port}`;
    chain = await startLocalChain({ port, chainId });
    const deployment = await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY as Hex,
      operatorAddress: privateKeyToAccount(DEV_OPERATOR_KEY as Hex).address,
      treasuryAddress: TREASURY,
    });
    usdc = deployment.collaterals.find((c) => c.symbol === "USDC")!.token;
    const viemChain = rpcChain(chainId, rpcUrl);
    client = createPublicClient({ chain: viemChain, transport: http(rpcUrl) });
    // The authorization window is checked against the service clock and the chain's block time: start both at now.
    t = await startTestService(
      { CHAIN_ID: String(chainId), RPC_URL: rpcUrl, INDEXER_ENABLED: "false", SEED_DEMO_MARKETS: "false", PM_STARTING_GRANT: GRANT.toString() },
      { clock: manualClock(Date.now()) },
    );
    buyer = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "pm-buyer" });
    buyerKey = buyer.walletPrivateKey!;
    const deployer = createWalletClient({ chain: viemChain, transport: http(rpcUrl), account: privateKeyToAccount(DEV_DEPLOYER_KEY as Hex) });
    const minted = await deployer.writeContract({
      address: usdc,
      abi: testUSDCAbi,
      functionName: "mint",
      args: [getAddress(buyer.walletAddress), 10n * PRICE],
    });
    await client.waitForTransactionReceipt({ hash: minted });
    await t.svc.services.venue!.openAccount(account(), t.clock.now()); // the starting grant lands before any snapshot
  });

  after(async () => {
    if (t) await stopTestService(t);
    if (chain) await stopChild(chain);
    rmSync(deploymentFile(chainId), { force: true });
  });

  it("publishes the bundles and the USDC that pays them", async () => {
    const res = await fetch(`${t.svc.baseUrl}/pm/bundles`);
    const body = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.pmPerFill, 2);
    assert.deepEqual(body.bundles[0], { usd: 1, usdCents: 100, pm: BUNDLE_PM, fills: FILLS, priceAtomic: PRICE.toString() });
    assert.equal(body.bundles.filter((b: Json) => b.featured).length, 1);
    assert.deepEqual(body.payment, {
      protocol: "x402",
      x402Version: 2,
      scheme: "exact",
      network: `eip155:${chainId}`,
      asset: getAddress(usdc),
      payTo: TREASURY,
      decimals: 6,
    });

    // The fill allowance publishes the same ladder (spec MeFillAllowance.purchase), without the USDC price.
    const allowance = await fetch(`${t.svc.baseUrl}/fills/allowance`, { headers: { authorization: `Bearer ${buyer.apiKey}` } });
    const purchase = ((await allowance.json()) as Json).purchase;
    assert.equal(purchase.pmPerFill, body.pmPerFill);
    assert.deepEqual(
      purchase.bundles,
      body.bundles.map(({ priceAtomic: _, ...rung }: Json) => rung),
    );
  });

  it("answers an unpaid request with 402 and the x402 requirements, header and body alike", async () => {
    const before = await snapshot();
    const res = await call({ pm: BUNDLE_PM });
    assert.equal(res.status, 402);
    assert.match(res.headers.get("content-type") ?? "", /application\/problem\+json/);
    assert.equal(res.json.code, "PAYMENT_REQUIRED");
    const required = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
    assert.equal(required.x402Version, 2);
    assert.equal(required.resource.url, `${t.svc.baseUrl}/pm/buy`);
    assert.deepEqual(required.accepts, [
      {
        scheme: "exact",
        network: `eip155:${chainId}`,
        asset: getAddress(usdc),
        amount: PRICE.toString(),
        payTo: TREASURY,
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2", assetTransferMethod: "eip3009" },
      },
    ]);
    assert.deepEqual(res.json.accepts, required.accepts, "the problem body carries the same requirements");
    assert.deepEqual(await snapshot(), before);
  });

  let paid: { idem: string; payment: Record<string, string>; body: Json; nonce: Hex };

  it("settles a paid request on chain, then credits exactly the bundle once (an x402 client retrying with the same key)", async () => {
    const before = await snapshot();
    const idem = randomUUID();
    const unpaid = await call({ pm: BUNDLE_PM }, { idem });
    assert.equal(unpaid.status, 402);
    // An agent's x402 client opts in to this (non-default) USDC with a per-payment cap, as a real one would.
    const spend = x402Client.fromConfig({
      schemes: [],
      spendControls: { allowedAssets: [{ network: `eip155:${chainId}`, asset: getAddress(usdc), maxAmountPerPayment: PRICE.toString() }] },
    });
    const x402 = new x402HTTPClient(registerExactEvmScheme(spend, { signer: privateKeyToAccount(buyerKey) }));
    const payload = await x402.createPaymentPayload(x402.getPaymentRequiredResponse((n) => unpaid.headers.get(n), unpaid.json));
    const payment = x402.encodePaymentSignatureHeader(payload);
    const res = await call({ pm: BUNDLE_PM }, { idem, payment });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.headers.get("idempotent-replayed"), null, "the 402 was not stored against the key");

    const nonce = (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;
    assert.equal(res.json.status, "credited");
    assert.equal(res.json.pmCredited, (BigInt(BUNDLE_PM) * 1_000_000n).toString());
    assert.equal(res.json.fillsCredited, FILLS);
    assert.equal(res.json.pmBalance, (before.pm + BigInt(BUNDLE_PM) * 1_000_000n).toString());
    assert.equal(res.json.fillsRemaining, before.fills + FILLS);
    assert.equal(res.json.payment.payer, buyer.walletAddress.toLowerCase());
    assert.equal(res.json.payment.nonce, nonce.toLowerCase());

    const settlement = x402.getPaymentSettleResponse((n) => res.headers.get(n));
    assert.equal(settlement.success, true);
    assert.equal(settlement.transaction.toLowerCase(), res.json.payment.transaction);
    const receipt = await client.getTransactionReceipt({ hash: res.json.payment.transaction });
    assert.equal(receipt.status, "success");
    assert.equal(getAddress(receipt.to!), getAddress(usdc), "transferWithAuthorization on the token");

    const after = await snapshot();
    assert.equal(after.payerUsdc, before.payerUsdc - PRICE);
    assert.equal(after.treasuryUsdc, before.treasuryUsdc + PRICE);
    assert.equal(after.pm, before.pm + BigInt(BUNDLE_PM) * 1_000_000n);
    assert.equal(after.fills, before.fills + FILLS);
    assert.equal(after.rows, before.rows + 1);
    assert.equal(after.journal, before.journal + 2, "one CREDIT and one addFillCredits entry");
    const [entry] = await t.svc.ctx.db.query<{ ops: unknown }>(`SELECT ops FROM journal_entries WHERE seq = $1`, [before.journal]);
    const ops = typeof entry!.ops === "string" ? JSON.parse(entry!.ops) : entry!.ops;
    assert.deepEqual(
      ops,
      [{ type: "CREDIT", account: account(), assetId: "0", amount: (BigInt(BUNDLE_PM) * 1_000_000n).toString(), reason: 1 }],
      "reason PURCHASE",
    );
    assert.equal(
      await client.readContract({ address: usdc, abi: testUSDCAbi, functionName: "authorizationState", args: [getAddress(buyer.walletAddress), nonce] }),
      true,
    );
    paid = { idem, payment, body: res.json, nonce };
  });

  it("replays the same Idempotency-Key with the same answer, without a second transfer or credit", async () => {
    const before = await snapshot();
    const res = await call({ pm: BUNDLE_PM }, { idem: paid.idem, payment: paid.payment });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(res.json, paid.body);
    assert.equal(decodePaymentResponseHeader(res.headers.get("payment-response")!).transaction.toLowerCase(), paid.body.payment.transaction);
    assert.deepEqual(await snapshot(), before);
  });

  it("refuses the same authorization under a new Idempotency-Key (reused nonce): nothing changes", async () => {
    const before = await snapshot();
    const res = await call({ pm: BUNDLE_PM }, { payment: paid.payment });
    assert.equal(res.status, 402, JSON.stringify(res.json));
    assert.equal(res.json.error, "invalid_exact_evm_nonce_already_used");
    assert.deepEqual(await snapshot(), before);
  });

  it("resumes a purchase cut off after its transfer (crash before the credit was recorded) without paying or crediting again", async () => {
    // The state a crash leaves between sending transferWithAuthorization and recording it: the row is still
    // `settling`, the transfer and the journaled credit already happened.
    await t.svc.ctx.db.query(`UPDATE pm_purchases SET status = 'settling', tx_hash = NULL, response = NULL WHERE id = $1`, [paid.body.purchaseId]);
    const before = await snapshot();
    const res = await call({ pm: BUNDLE_PM }, { payment: paid.payment });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(res.json, paid.body, "the same purchase, the earlier transaction found on chain");
    assert.deepEqual(await snapshot(), before, "no second transfer, no second credit");
    const [row] = await t.svc.ctx.db.query<{ status: string }>(`SELECT status FROM pm_purchases WHERE id = $1`, [paid.body.purchaseId]);
    assert.equal(row!.status, "credited");
  });

  for (const [name, reason, make] of [
    ["a wrong amount", "invalid_exact_evm_authorization_value", (req: PaymentRequirements) => handPayment(req, { value: PRICE - 1n })],
    [
      "a wrong payTo",
      "invalid_exact_evm_recipient_mismatch",
      (req: PaymentRequirements) => handPayment(req, { to: getAddress(privateKeyToAccount(generatePrivateKey()).address) }),
    ],
    [
      "an expired authorization",
      "invalid_exact_evm_payload_authorization_valid_before",
      (req: PaymentRequirements) => handPayment(req, { validBefore: BigInt(Math.floor(t.clock.now() / 1000) - 60) }),
    ],
    ["a signature by another key", "invalid_exact_evm_signature", (req: PaymentRequirements) => handPayment(req, { signer: generatePrivateKey() })],
  ] as const) {
    it(`refuses ${name} with 402 ${reason}: nothing changes on chain or in the ledger`, async () => {
      const req = await requirementsFor(BUNDLE_PM);
      const before = await snapshot();
      const { header, nonce } = await make(req);
      const res = await call({ pm: BUNDLE_PM }, { payment: header });
      assert.equal(res.status, 402, JSON.stringify(res.json));
      assert.equal(res.json.code, "PAYMENT_REQUIRED");
      assert.equal(res.json.error, reason);
      assert.equal(decodePaymentRequiredHeader(res.headers.get("payment-required")!).error, reason);
      assert.deepEqual(await snapshot(), before);
      assert.equal(
        await client.readContract({ address: usdc, abi: testUSDCAbi, functionName: "authorizationState", args: [getAddress(buyer.walletAddress), nonce] }),
        false,
      );
    });
  }

  it("refuses a payment header that is not an x402 payload with INVALID_PAYLOAD", async () => {
    const before = await snapshot();
    const res = await call({ pm: BUNDLE_PM }, { payment: "not-base64-json" });
    assert.equal(res.status, 400);
    assert.equal(res.json.code, "INVALID_PAYLOAD");
    assert.equal(res.json.field, "PAYMENT-SIGNATURE");
    assert.deepEqual(await snapshot(), before);
  });

  it("refuses an amount that is not a bundle with PURCHASE_NOT_A_BUNDLE, before any payment", async () => {
    const before = await snapshot();
    const res = await call({ pm: 1_234 });
    assert.equal(res.status, 400);
    assert.equal(res.json.code, "PURCHASE_NOT_A_BUNDLE");
    assert.deepEqual(res.json.bundles, [1_000, 6_000, 15_000]);
    assert.equal(res.headers.get("payment-required"), null);
    assert.deepEqual(await snapshot(), before);
  });

  it("refuses an agent without a wallet with WALLET_REQUIRED", async () => {
    const key = await t.svc.ctx.db.transaction(async (tx) => {
      const agentId = await createAgent(
        tx,
        {
          name: "pm-no-wallet",
          tier: "execute",
          scopes: scopesForTier("execute"),
          registrationPath: "admin",
          walletAddress: null,
          email: "no-wallet@example.com",
          emailVerified: true,
        },
        t.clock.now(),
      );
      return (await issueKey(tx, agentId, t.clock.now())).apiKey;
    });
    const res = await call({ pm: BUNDLE_PM }, { key });
    assert.equal(res.status, 403, JSON.stringify(res.json));
    assert.equal(res.json.code, "WALLET_REQUIRED");
  });
});
