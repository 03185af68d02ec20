/**
 * `npm run admin -- time [advance <duration>]` (docs/dev-chain.md): asks the running service's /admin/v1/time. Refused
 * here, before any request, unless the configured chain is local: a live chain's time is never moved.
 */
import type { Config } from "../../api/config";
import { chainKind, isLocalChain } from "../../relayer/local-chain";
import { parseDuration } from "../../api/domain/dev-chain/duration";
import type { AdminHttp } from "./http";

/** The command cannot run here (live chain, or a malformed duration): one line, exit 2. */
export class TimeRefused extends Error {}

interface TimeView {
  now: number;
  offsetMs: number;
  offset: string;
  chain: { blockNumber: string; timestamp: string } | null;
}

interface AdvanceView extends TimeView {
  advancedMs: number;
  from: number;
  transitions: { at: number; source: string; detail: string }[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function runTimeCommand(
  config: Config,
  duration: string | null,
  json: boolean,
  out: (line: string) => void,
  running: (what: string) => Promise<AdminHttp>,
): Promise<number> {
  if (!isLocalChain(config)) {
    throw new TimeRefused(
      `time moves only on a local chain (the stack's own Hardhat node, a loopback RPC or a fork): RPC_URL=${config.RPC_URL} is ${chainKind(config)}, so the service has no time route`,
    );
  }
  if (duration !== null && !((parseDuration(duration) ?? 0) > 0))
    throw new TimeRefused(`${JSON.stringify(duration)} is not a duration: use e.g. 90s, 15m, 2h, 3d or 1h30m (time only moves forward)`);
  const http = await running(duration === null ? "time" : "time advance");
  if (duration === null) {
    const t = await http.call<TimeView>("GET", "/time");
    if (json) out(JSON.stringify(t));
    else {
      out(`service clock  ${iso(t.now)}`);
      out(`offset         ${t.offset} (${t.offsetMs} ms ahead of the wall clock)`);
      if (t.chain) out(`chain          block ${t.chain.blockNumber} at ${iso(Number(t.chain.timestamp) * 1000)}`);
    }
    return 0;
  }
  const a = await http.call<AdvanceView>("POST", "/time/advance", { duration });
  if (json) out(JSON.stringify(a));
  else {
    out(`moved ${duration}: ${iso(a.from)} -> ${iso(a.now)} (offset now ${a.offset})`);
    if (a.chain) out(`chain          block ${a.chain.blockNumber} at ${iso(Number(a.chain.timestamp) * 1000)}`);
    if (a.transitions.length === 0) out("nothing came due");
    for (const t of a.transitions) out(`  ${iso(t.at)}  ${t.source}: ${t.detail}`);
  }
  return 0;
}
