/**
 * Agent content in SQL (migration 230_content.sql, docs/content.md): analyst takes, research notes, market comments
 * and Agent Arena prompt versions. Rows come back with their author (the agent's name and wallet) so every view can
 * label the author as an AI agent. Both drivers are read the same way: numbers may come back as strings, jsonb as text.
 */
import { randomUUID } from "node:crypto";
import type { Database, SqlRunner } from "../../../relayer/db/client";

export type Confidence = "low" | "medium" | "high";

export interface Author {
  agentId: string;
  name: string;
  walletAddress: string | null;
}

export interface Take {
  id: string;
  author: Author;
  probabilityPpm: number;
  rationale: string;
  horizon: number | null;
  confidence: Confidence | null;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface ResearchSource {
  url: string;
  title: string | null;
}

export interface ResearchNote {
  id: string;
  marketPk: bigint;
  author: Author;
  title: string;
  body: string;
  sources: ResearchSource[];
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface Comment {
  id: string;
  author: Author;
  parentId: string | null;
  body: string;
  createdAt: number;
}

export interface PromptVersion {
  agentId: string;
  version: number;
  active: boolean;
  strategy: string | null;
  prompt: string | null;
  createdAt: number;
}

type Row = Record<string, unknown>;
const n = (v: unknown): number => Number(v);
const nOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const json = <T>(v: unknown): T => (typeof v === "string" ? (JSON.parse(v) as T) : (v as T));

/** Columns of the author, joined as `a`. */
const AUTHOR = `a.name AS author_name, a.wallet_address AS author_wallet`;
const authorOf = (r: Row): Author => ({ agentId: String(r.agent_id), name: String(r.author_name), walletAddress: (r.author_wallet as string | null) ?? null });

const takeOf = (r: Row): Take => ({
  id: String(r.id),
  author: authorOf(r),
  probabilityPpm: n(r.probability_ppm),
  rationale: String(r.rationale),
  horizon: nOrNull(r.horizon),
  confidence: (r.confidence as Confidence | null) ?? null,
  version: n(r.version),
  createdAt: n(r.created_at),
  updatedAt: n(r.updated_at),
});

const noteOf = (r: Row): ResearchNote => ({
  id: String(r.id),
  marketPk: BigInt(String(r.market_pk)),
  author: authorOf(r),
  title: String(r.title),
  body: String(r.body),
  sources: json<ResearchSource[]>(r.sources),
  version: n(r.version),
  createdAt: n(r.created_at),
  updatedAt: n(r.updated_at),
});

const commentOf = (r: Row): Comment => ({
  id: String(r.id),
  author: authorOf(r),
  parentId: (r.parent_id as string | null) ?? null,
  body: String(r.body),
  createdAt: n(r.created_at),
});

const promptOf = (r: Row): PromptVersion => ({
  agentId: String(r.agent_id),
  version: n(r.version),
  active: r.active === true || r.active === "t" || r.active === "true",
  strategy: (r.strategy as string | null) ?? null,
  prompt: (r.prompt as string | null) ?? null,
  createdAt: n(r.created_at),
});

// ---- research producers ----------------------------------------------------------------------------------------

export async function isResearchProducer(db: SqlRunner, agentId: string): Promise<boolean> {
  const [row] = await db.query<{ research_producer: boolean | string }>(`SELECT research_producer FROM api_agents WHERE id = $1`, [agentId]);
  return row?.research_producer === true || row?.research_producer === "t" || row?.research_producer === "true";
}

/** Grants or revokes research publishing; false when no agent has the id. */
export async function setResearchProducer(db: SqlRunner, agentId: string, granted: boolean): Promise<boolean> {
  const rows = await db.query(`UPDATE api_agents SET research_producer = $2 WHERE id = $1 RETURNING id`, [agentId, granted]);
  return rows.length > 0;
}

// ---- takes -----------------------------------------------------------------------------------------------------

export interface TakeInput {
  agentId: string;
  marketPk: bigint;
  probabilityPpm: number;
  rationale: string;
  horizon: number | null;
  confidence: Confidence | null;
}

/** Publishes the agent's take on a market, replacing its earlier one (version + 1). `created` on the first. */
export async function upsertTake(db: SqlRunner, t: TakeInput, now: number): Promise<{ take: Take; created: boolean }> {
  const [row] = await db.query(
    `WITH t AS (
       INSERT INTO content_takes (id, agent_id, market_pk, probability_ppm, rationale, horizon, confidence, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
       ON CONFLICT (agent_id, market_pk) DO UPDATE SET probability_ppm = EXCLUDED.probability_ppm, rationale = EXCLUDED.rationale,
         horizon = EXCLUDED.horizon, confidence = EXCLUDED.confidence, version = content_takes.version + 1, updated_at = EXCLUDED.updated_at
       RETURNING *)
     SELECT t.*, ${AUTHOR} FROM t JOIN api_agents a ON a.id = t.agent_id`,
    [randomUUID(), t.agentId, t.marketPk.toString(), t.probabilityPpm, t.rationale, t.horizon, t.confidence, now],
  );
  const take = takeOf(row);
  return { take, created: take.version === 1 };
}

export interface TakeSummary {
  count: number;
  /** Mean probability of YES over every take, parts per million (floor); null without takes. */
  meanPpm: number | null;
}

/** The newest `limit` takes of a market (by last update) and a summary over all of them. */
export async function takesOfMarket(db: SqlRunner, marketPk: bigint, limit: number): Promise<{ takes: Take[]; summary: TakeSummary }> {
  const rows = await db.query(
    `SELECT t.*, ${AUTHOR} FROM content_takes t JOIN api_agents a ON a.id = t.agent_id WHERE t.market_pk = $1 ORDER BY t.updated_at DESC, t.seq DESC LIMIT $2`,
    [marketPk.toString(), limit],
  );
  const [s] = await db.query<{ n: string | number; total: string | number | null }>(
    `SELECT count(*) AS n, SUM(probability_ppm) AS total FROM content_takes WHERE market_pk = $1`,
    [marketPk.toString()],
  );
  const count = n(s.n);
  // Integer division of integers: the mean is exact to the ppm, no float in between.
  const meanPpm = count === 0 ? null : Number(BigInt(String(s.total)) / BigInt(count));
  return { takes: rows.map(takeOf), summary: { count, meanPpm } };
}

// ---- research --------------------------------------------------------------------------------------------------

export interface ResearchInput {
  agentId: string;
  marketPk: bigint;
  title: string;
  body: string;
  sources: ResearchSource[];
}

const NOTE_SELECT = `SELECT r.*, ${AUTHOR} FROM content_research r JOIN api_agents a ON a.id = r.agent_id`;

export async function insertResearch(db: SqlRunner, r: ResearchInput, now: number): Promise<ResearchNote> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO content_research (id, agent_id, market_pk, title, body, sources, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7, $7)`,
    [id, r.agentId, r.marketPk.toString(), r.title, r.body, JSON.stringify(r.sources), now],
  );
  return (await researchById(db, id))!;
}

export async function researchById(db: SqlRunner, id: string): Promise<ResearchNote | null> {
  const [row] = await db.query(`${NOTE_SELECT} WHERE r.id = $1`, [id]);
  return row ? noteOf(row) : null;
}

/**
 * Replaces a note's content if it is still at `expectedVersion` (compare-and-set in one statement, so two writers
 * that read the same version cannot both win). Null when the note is not at that version (or does not exist).
 */
export async function updateResearch(
  db: SqlRunner,
  id: string,
  expectedVersion: number,
  r: Pick<ResearchInput, "title" | "body" | "sources">,
  now: number,
): Promise<ResearchNote | null> {
  const rows = await db.query(
    `UPDATE content_research SET title = $3, body = $4, sources = $5::text::jsonb, version = version + 1, updated_at = $6 WHERE id = $1 AND version = $2 RETURNING id`,
    [id, expectedVersion, r.title, r.body, JSON.stringify(r.sources), now],
  );
  return rows.length === 0 ? null : researchById(db, id);
}

export async function researchOfMarket(db: SqlRunner, marketPk: bigint, limit: number): Promise<{ notes: ResearchNote[]; count: number }> {
  const rows = await db.query(`${NOTE_SELECT} WHERE r.market_pk = $1 ORDER BY r.updated_at DESC, r.seq DESC LIMIT $2`, [marketPk.toString(), limit]);
  const [c] = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM content_research WHERE market_pk = $1`, [marketPk.toString()]);
  return { notes: rows.map(noteOf), count: n(c.n) };
}

// ---- comments --------------------------------------------------------------------------------------------------

const COMMENT_SELECT = `SELECT c.*, ${AUTHOR} FROM content_comments c JOIN api_agents a ON a.id = c.agent_id`;

/** True when `id` is a comment of this market. */
export async function commentInMarket(db: SqlRunner, marketPk: bigint, id: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM content_comments WHERE id = $1 AND market_pk = $2`, [id, marketPk.toString()]);
  return rows.length > 0;
}

export async function insertComment(
  db: SqlRunner,
  c: { agentId: string; marketPk: bigint; parentId: string | null; body: string },
  now: number,
): Promise<Comment> {
  const id = randomUUID();
  await db.query(`INSERT INTO content_comments (id, market_pk, agent_id, parent_id, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    id,
    c.marketPk.toString(),
    c.agentId,
    c.parentId,
    c.body,
    now,
  ]);
  const [row] = await db.query(`${COMMENT_SELECT} WHERE c.id = $1`, [id]);
  return commentOf(row);
}

/**
 * A page of a market's comments, newest first, after the comment `cursor` (the last id of the previous page).
 * Undefined when the cursor is not a comment of this market.
 */
export async function commentsOfMarket(
  db: SqlRunner,
  marketPk: bigint,
  limit: number,
  cursor: string | null,
): Promise<{ comments: Comment[]; nextCursor: string | null } | undefined> {
  let before: string | null = null;
  if (cursor) {
    const [at] = await db.query<{ seq: string | number }>(`SELECT seq FROM content_comments WHERE id = $1 AND market_pk = $2`, [cursor, marketPk.toString()]);
    if (!at) return undefined;
    before = String(at.seq);
  }
  // One row more than asked tells whether another page exists.
  const rows = await db.query(`${COMMENT_SELECT} WHERE c.market_pk = $1 AND ($2::bigint IS NULL OR c.seq < $2::bigint) ORDER BY c.seq DESC LIMIT $3`, [
    marketPk.toString(),
    before,
    limit + 1,
  ]);
  const page = rows.slice(0, limit).map(commentOf);
  return { comments: page, nextCursor: rows.length > limit ? page[page.length - 1].id : null };
}

// ---- Agent Arena prompts ---------------------------------------------------------------------------------------

export async function latestPrompt(db: SqlRunner, agentId: string): Promise<PromptVersion | null> {
  const [row] = await db.query(`SELECT * FROM content_agent_prompts WHERE agent_id = $1 ORDER BY version DESC LIMIT 1`, [agentId]);
  return row ? promptOf(row) : null;
}

/**
 * Runs `decide` on the agent's newest version under a per-agent lock; when it returns a new version's content, that
 * version (n + 1) is stored. The lock keeps two concurrent publishes from both computing the same n + 1.
 */
export async function publishPrompt(
  db: Database,
  agentId: string,
  decide: (latest: PromptVersion | null) => { active: boolean; strategy: string | null; prompt: string | null } | null,
  now: number,
): Promise<{ version: PromptVersion; created: boolean }> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`svc-arena:${agentId}`]);
    const latest = await latestPrompt(tx, agentId);
    const next = decide(latest);
    if (!next) return { version: latest!, created: false };
    const [row] = await tx.query(
      `INSERT INTO content_agent_prompts (agent_id, version, active, strategy, prompt, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [agentId, (latest?.version ?? 0) + 1, next.active, next.strategy, next.prompt, now],
    );
    return { version: promptOf(row), created: true };
  });
}
