/**
 * The collaterals a new market may use, as GET /markets/config serves them: PM on the committed lane (the ledger runs
 * in the service, so PM is served even before the contracts are deployed), and every router collateral of the
 * deployment on the on-chain lane (the LMSR factories enable them at deployment).
 */
import type { Config } from "../../config";
import { buildCollateral } from "../protocol/chains";
import { currentDeployment } from "../markets/venue-documents";
import type { ServedCollateral } from "./preflight";

export function servedCollaterals(config: Pick<Config, "CHAIN_ID" | "deploymentFile">): ServedCollateral[] {
  const { tokens } = buildCollateral(currentDeployment(config));
  const pm = tokens.find((t) => t.settlement === "committed");
  return [
    { symbol: "PM", token: pm?.token.toLowerCase() ?? null, decimals: 6, lane: "committed" },
    ...tokens
      .filter((t) => t.settlement === "onchain")
      .map((t) => ({ symbol: t.symbol, token: t.token.toLowerCase(), decimals: t.decimals, lane: "onchain" as const })),
  ];
}
