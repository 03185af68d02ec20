/**
 * USDC for a developer's wallet on a local chain (docs/dev-chain.md), mounted only when the chain is local:
 *   POST /admin/v1/usdc/fund {address, amount?}   adds `amount` (USDC base units, default 1,000 USDC) to the
 *                                                 wallet's balance of the stack's USDC, and tops its gas up to 1 ETH
 * The balance is written into the token's storage (relayer/dev-usdc.ts), so it works for the planted test token and
 * for a fork's real USDC alike. On a live chain this path does not exist (404).
 */
import { existsSync } from "node:fs";
import { createPublicClient, getAddress, http, parseEther, type Address } from "viem";
import { z } from "zod";
import { fundUsdc } from "../../../relayer/dev-usdc";
import { isLocalChain } from "../../../relayer/local-chain";
import { readDeployment } from "../../domain/protocol/deployment";
import { ApiError } from "../../platform/errors/api-error";
import { adminBody, adminJson, defineAdminRoutes } from "./define";

const DEFAULT_AMOUNT = 1_000_000_000n; // 1,000 USDC
const MAX_AMOUNT = 10n ** 15n; // a billion USDC per call: a typo is refused, not obeyed
const GAS = parseEther("1");

const fundBody = z.strictObject({
  address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")
    .transform((v) => getAddress(v.toLowerCase())),
  amount: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "must be a positive integer of USDC base units (6 decimals), at most 10^15")
    .transform(BigInt)
    .refine((v) => v <= MAX_AMOUNT, "must be at most 10^15 base units")
    .optional(),
});

export const usdcRoutes = defineAdminRoutes({
  name: "usdc",
  enabled: ({ ctx }) => isLocalChain(ctx.config),
  mount(r, { ctx }) {
    const client = createPublicClient({ transport: http(ctx.config.rpcUrl) });
    r.post("/usdc/fund", async (c) => {
      const { address, amount = DEFAULT_AMOUNT } = await adminBody(c, fundBody);
      const file = ctx.config.deploymentFile;
      const token = existsSync(file) ? (readDeployment(file).collaterals.find((x) => x.symbol === "USDC")?.token as Address | undefined) : undefined;
      if (!token) throw new ApiError("SERVICE_UNAVAILABLE", `no USDC is deployed on chain ${ctx.config.CHAIN_ID} yet`, {}, { "Retry-After": "30" });
      try {
        const [balance] = await fundUsdc(client, token, [address], amount);
        if ((await client.getBalance({ address })) < GAS) {
          await client.request({ method: "hardhat_setBalance" as never, params: [address, `0x${GAS.toString(16)}`] as never });
        }
        return adminJson(c, { address, token, added: amount, balance });
      } catch (err) {
        throw new ApiError("SERVICE_UNAVAILABLE", `the chain did not take the funding: ${(err as Error).message.split("\n")[0]}`, {}, { "Retry-After": "5" });
      }
    });
  },
});
