/**
 * The negotiate flow's state in memory (docs/market-creation.md "Throughput"): the negotiations its steps read by id,
 * per creator what the standing and the externalId rule read (its creator row, its markets, its accepted and deployed
 * negotiations), and the public cohort and the highest market id. Each part is read from the database once; then
 * the flow's steps check and decide in memory, synchronously, and `stage` hands their rows to the call's commit unit
 * (set-based, in the shared group-commit tick) and applies them here at once, so concurrent steps count each other's
 * reservations (what the creator's row lock did). The answer leaves only once the unit committed.
 *
 * Exact the way catalog-cache.ts is: any write of these tables by a statement that is not the flow's own
 * (Database.onWrite: an operator's grant, the lifecycle moving a market to resolved), any failed tick and the TTL
 * (writes of other processes) drop it all, and the next step reads again. Every change is applied by an idempotent function, so applying it again once
 * committed, or to a part read while it was pending, keeps the mirror whole.
 */
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { CommitUnit, groupCommitterOf, openUnit, rowSink, type RowSink } from "../../../relayer/db/group-commit";
import { ANY_TABLE, writtenTables } from "../../../relayer/db/written-tables";
import { perDatabase } from "../../../relayer/db/per-database";
import { LISTINGS_SINK } from "../markets/catalog-store";
import type { StandingInputs } from "./creator-standing";
import { loadNegotiation, NEGOTIATION_LAPSES_SINK, NEGOTIATION_MOVES_SINK, NEGOTIATIONS_SINK, type Negotiation } from "./negotiation-store";

const MIRRORED = new Set(["market_negotiations", "market_creators", "market_creator_cohort", "markets", ANY_TABLE]);
const FINAL_STATES = new Set(["resolved", "void"]);
/**
 * Wall-time bound on what the mirror holds (ms): writes this process cannot see (an operator's SQL on the database,
 * a process that was the leader a moment ago) are read within it. Every step of the flow runs on the leader
 * (followers forward), and operators act through the admin API, whose writes are seen at once, so this bound only
 * covers writes made around the service; each expiry costs a read per active creator, hence 5 s, not the 1 s of
 * the catalog cache.
 */
const MIRROR_TTL_MS = 5_000;
/** Negotiations kept by id; past it the oldest go (a step reads it again). */
const MAX_NEGOTIATIONS = 50_000;

/** A public cohort admission (accept): the creator takes the next slot. */
export const ADMISSIONS_SINK = rowSink(
  "market_creators_admitted",
  `INSERT INTO market_creators (creator, slot, slot_ordinal, updated_at)
   SELECT creator, 'held', slot_ordinal, updated_at FROM json_to_recordset($1::text::json) AS x(creator text, slot_ordinal integer, updated_at bigint)
   ON CONFLICT (creator) DO UPDATE SET slot = 'held', slot_ordinal = EXCLUDED.slot_ordinal, updated_at = EXCLUDED.updated_at`,
);

interface CreatorMarket {
  marketId: string | null;
  externalId: string | null;
  state: string;
}

/** A negotiation holding its externalId (and, accepted, a place under the concurrent limit). */
interface Claim {
  externalId: string;
  status: "accepted" | "deployed";
  expiresAt: number;
}

export interface CreatorEntry {
  tierOverride: string | null;
  slot: "none" | "held" | "revoked";
  /** By `chainId:address`. */
  markets: Map<string, CreatorMarket>;
  /** By negotiation id. */
  claims: Map<string, Claim>;
}

interface Globals {
  slotLimit: number | null;
  holders: Set<string>;
  maxOrdinal: number;
  maxMarketId: bigint;
}

/** An idempotent change of the mirror; it finds what it changes by key (a part not read yet is left alone). */
type Apply = (s: CreationState) => void;

interface Load {
  missed: Apply[];
}

const CREATOR_SQL = `SELECT
    (SELECT json_build_object('tier_override', tier_override, 'slot', slot)::text FROM market_creators WHERE creator = $1) AS creator_row,
    (SELECT COALESCE(json_agg(json_build_array(chain_id, address, market_id::text, external_id, state)), '[]')::text FROM markets WHERE creator = $1) AS markets,
    (SELECT COALESCE(json_agg(json_build_array(id, external_id, status, expires_at::text)), '[]')::text FROM market_negotiations
      WHERE creator = $1 AND status IN ('accepted', 'deployed')) AS claims`;

const GLOBALS_SQL = `SELECT (SELECT slot_limit FROM market_creator_cohort WHERE id = 1) AS slot_limit,
    (SELECT COALESCE(json_agg(creator), '[]')::text FROM market_creators WHERE slot = 'held') AS holders,
    (SELECT COALESCE(MAX(slot_ordinal), 0) FROM market_creators) AS max_ordinal,
    GREATEST((SELECT COALESCE(MAX(market_id), 0) FROM markets), (SELECT COALESCE(MAX(market_id), 0) FROM market_negotiations))::text AS max_market_id`;

export class CreationState {
  #generation = 0;
  readonly negotiations = new Map<string, Negotiation>();
  readonly creators = new Map<string, CreatorEntry>();
  globals: Globals | null = null;
  /** Per negotiation, the commit of its last staged step: the next step waits for it. */
  readonly #pending = new Map<string, Promise<void>>();
  /** Staged, not yet committed: applied to every part read meanwhile. */
  readonly #unsettled = new Set<Apply>();
  readonly #loads = new Set<Load>();
  readonly #ownTexts: Set<string>;
  /** Drops for a write not the flow's own or a failed tick (the TTL's are not counted), for tests. */
  drops = 0;
  #epochStart = performance.now();

  constructor(private readonly db: Database) {
    this.#ownTexts = new Set([NEGOTIATIONS_SINK.sql, NEGOTIATION_MOVES_SINK.sql, NEGOTIATION_LAPSES_SINK.sql, ADMISSIONS_SINK.sql, LISTINGS_SINK.sql]);
    db.onWrite((tables, texts) => {
      if (!tables.some((t) => MIRRORED.has(t))) return;
      const foreign = texts.some((t) => !this.#ownTexts.has(t) && writtenTables(t).some((w) => MIRRORED.has(w)));
      if (foreign) this.drop();
    });
  }

  /** Forgets everything read (a foreign write, a failed tick); reads in flight are not kept. */
  drop(reason: "write" | "ttl" = "write"): void {
    this.#epochStart = performance.now();
    this.#generation++;
    if (reason === "write") this.drops++;
    this.negotiations.clear();
    this.creators.clear();
    this.globals = null;
  }

  /** Starts over once the mirror is older than its TTL (called where a step reads, never inside its checks). */
  #fresh(): void {
    if (performance.now() - this.#epochStart > MIRROR_TTL_MS) this.drop("ttl");
  }

  /** Reads `read` and keeps its result with `keep`, then applies what committed or was staged meanwhile. */
  async #load<T>(read: () => Promise<T>, keep: (value: T) => void): Promise<void> {
    for (;;) {
      const generation = this.#generation;
      const load: Load = { missed: [] };
      this.#loads.add(load);
      let value: T;
      try {
        value = await read();
      } finally {
        this.#loads.delete(load);
      }
      if (generation !== this.#generation) continue;
      keep(value);
      for (const apply of load.missed) apply(this);
      for (const apply of this.#unsettled) apply(this);
      return;
    }
  }

  /** The agent's negotiation as its last answered step left it (waiting for a step of it still committing). */
  async negotiation(agentId: string, id: string): Promise<Negotiation | null> {
    await this.#pending.get(id)?.catch(() => {});
    this.#fresh();
    let n = this.negotiations.get(id);
    if (!n) {
      await this.#load(
        () => loadNegotiation(this.db, agentId, id),
        (found) => {
          if (found) this.#keepNegotiation(found);
        },
      );
      n = this.negotiations.get(id);
    }
    return n && n.agentId === agentId ? n : null;
  }

  #keepNegotiation(n: Negotiation): void {
    this.negotiations.delete(n.id);
    this.negotiations.set(n.id, n);
    if (this.negotiations.size > MAX_NEGOTIATIONS) this.negotiations.delete(this.negotiations.keys().next().value as string);
  }

  /** Puts a negotiation as it now is (an Apply's step). */
  setNegotiation(n: Negotiation): void {
    this.#keepNegotiation(n);
  }

  async creator(account: string): Promise<CreatorEntry> {
    this.#fresh();
    for (;;) {
      const known = this.creators.get(account);
      if (known) return known;
      await this.#load(
        () => this.db.query<{ creator_row: string | null; markets: string; claims: string }>(CREATOR_SQL, [account]),
        ([row]) => {
          const c = row?.creator_row ? (JSON.parse(row.creator_row) as { tier_override: string | null; slot: CreatorEntry["slot"] }) : null;
          const entry: CreatorEntry = { tierOverride: c?.tier_override ?? null, slot: c?.slot ?? "none", markets: new Map(), claims: new Map() };
          for (const [chainId, address, marketId, externalId, state] of JSON.parse(row?.markets ?? "[]") as [
            number,
            string,
            string | null,
            string | null,
            string,
          ][])
            entry.markets.set(`${chainId}:${address}`, { marketId, externalId, state });
          for (const [id, externalId, status, expiresAt] of JSON.parse(row?.claims ?? "[]") as [string, string, Claim["status"], string][])
            entry.claims.set(id, { externalId, status, expiresAt: Number(expiresAt) });
          this.creators.set(account, entry);
        },
      );
    }
  }

  async cohort(): Promise<Globals> {
    this.#fresh();
    for (;;) {
      if (this.globals) return this.globals;
      await this.#load(
        () => this.db.query<{ slot_limit: unknown; holders: string; max_ordinal: unknown; max_market_id: string }>(GLOBALS_SQL),
        ([row]) => {
          this.globals = {
            slotLimit: row?.slot_limit === null || row?.slot_limit === undefined ? null : Number(row.slot_limit),
            holders: new Set(JSON.parse(row?.holders ?? "[]") as string[]),
            maxOrdinal: Number(row?.max_ordinal ?? 0),
            maxMarketId: BigInt(row?.max_market_id ?? "0"),
          };
        },
      );
    }
  }

  /** What the standing rule reads, at `now` (accepted terms count until their deploy-by instant). */
  static standingInputs(entry: CreatorEntry, g: Globals, now: number): StandingInputs {
    let active = 0;
    const finalIds: string[] = [];
    for (const m of entry.markets.values()) {
      if (!FINAL_STATES.has(m.state)) active++;
      else if (m.marketId !== null) finalIds.push(m.marketId);
    }
    let reserved = 0;
    for (const c of entry.claims.values()) if (c.status === "accepted" && c.expiresAt > now) reserved++;
    return {
      tierOverride: entry.tierOverride,
      slot: entry.slot,
      created: entry.markets.size,
      active,
      finalIds,
      reserved,
      slotLimit: g.slotLimit,
      occupied: g.holders.size,
    };
  }

  /**
   * Whether the creator already used this externalId: a market it listed, or a live negotiation (accepted and not
   * expired, or deployed) other than `except`.
   */
  static externalIdTaken(entry: CreatorEntry, externalId: string, now: number, except?: string): boolean {
    for (const m of entry.markets.values()) if (m.externalId === externalId) return true;
    for (const [id, c] of entry.claims) if (id !== except && c.externalId === externalId && (c.status === "deployed" || c.expiresAt > now)) return true;
    return false;
  }

  /**
   * Hands `rows` to the call's commit unit `opts.unit` (its answer waits for the tick) and applies `apply` now and again
   * once committed (then `afterCommit`); a failed tick drops the mirror. With no unit the rows commit in a unit of their
   * own, awaited here. Call it last in a step: an unsealed unit holds back the ticks of units queued behind it.
   */
  stage(
    rows: ReadonlyArray<readonly [RowSink, string]>,
    apply: Apply,
    opts: { unit: CommitUnit | null; negotiationId?: string; afterCommit?: () => void },
  ): Promise<void> {
    const committer = groupCommitterOf(this.db);
    if (!committer) throw new Error("the negotiate flow needs a database handle");
    const call = openUnit(opts.unit);
    const unit = call ?? new CommitUnit();
    for (const [sink, row] of rows) unit.add(committer, sink, row);
    this.#unsettled.add(apply);
    apply(this);
    unit.onCommit(() => {
      this.#unsettled.delete(apply);
      apply(this);
      for (const l of this.#loads) l.missed.push(apply);
      opts.afterCommit?.();
    });
    unit.onFail(() => {
      this.#unsettled.delete(apply);
      this.drop();
    });
    const committed = call ? unit.committed : unit.seal();
    const id = opts.negotiationId;
    if (id) {
      this.#pending.set(id, committed);
      const clear = () => {
        if (this.#pending.get(id) === committed) this.#pending.delete(id);
      };
      committed.then(clear, clear);
    }
    return call ? Promise.resolve() : committed;
  }
}

/** The flow's state of a database handle. */
export const creationStateOf = perDatabase((db) => new CreationState(db));

export function creationState(db: SqlRunner): CreationState {
  const s = creationStateOf(db);
  if (!s) throw new Error("the negotiate flow needs a database handle");
  return s;
}
