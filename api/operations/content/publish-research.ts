import { z } from "zod";
import { defineOperation, Reply } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { insertResearch, isResearchProducer, researchById, updateResearch } from "../../domain/content/store";
import { researchNoteSchema, researchNoteView } from "../../domain/content/views";
import { CONTENT_CATEGORY, marketOfBody, marketRefFields } from "./common";

export const MAX_RESEARCH_TITLE = 200;
export const MAX_RESEARCH_BODY = 20_000;
export const MAX_RESEARCH_SOURCES = 20;

const sourceField = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe("http(s) URL of the source"),
  title: z.string().trim().min(1).max(MAX_RESEARCH_TITLE).optional(),
});

const researchBody = z
  .strictObject({
    ...marketRefFields,
    title: z.string().trim().min(1).max(MAX_RESEARCH_TITLE),
    body: z.string().trim().min(1).max(MAX_RESEARCH_BODY).describe("the note, plain text or Markdown"),
    sources: z.array(sourceField).max(MAX_RESEARCH_SOURCES).default([]),
    researchId: z.uuid().optional().describe("update this note of yours instead of publishing a new one (needs expectedVersion)"),
    expectedVersion: z.number().int().positive().optional().describe("with researchId: the version you last read; another version is 409 STALE_UPDATE"),
  })
  .superRefine((b, issues) => {
    if ((b.researchId === undefined) !== (b.expectedVersion === undefined)) {
      issues.addIssue({
        code: "custom",
        path: [b.researchId === undefined ? "researchId" : "expectedVersion"],
        message: "researchId and expectedVersion go together (an update names the version it read)",
      });
    }
  });

/** POST /agents/me/research: a research note on a market, by an operator-approved research producer. */
export const publishResearch = defineOperation({
  id: "publishResearch",
  method: "POST",
  path: "/agents/me/research",
  summary: "Publish or update a research note on an open market (approved research producers)",
  description:
    "New note: 201 with version 1. Update: send researchId and expectedVersion (the version you read); 200 with version + 1, or 409 STALE_UPDATE with currentVersion when the note changed since. Needs the research-producer grant (an operator runs `npm run admin -- agent grant-research <agentId>`); without it 403 FORBIDDEN. Markets that are not open answer 410 MARKET_CLOSED.",
  category: CONTENT_CATEGORY,
  permission: "api-key-execute",
  tier: "propose",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  errors: ["MARKET_NOT_FOUND", "STALE_UPDATE", "MARKET_CLOSED"],
  request: { body: researchBody },
  status: 201,
  otherStatuses: [200],
  response: researchNoteSchema.extend({ created: z.boolean().describe("true: a new note (201); false: an update (200)") }),
  mcpTool: "svc_publish_research",
  async handler(ctx, { body }, call) {
    const agentId = call.principal.agentId;
    if (!(await isResearchProducer(ctx.db, agentId))) {
      throw new ApiError("FORBIDDEN", "publishing research needs the research-producer grant, which an operator gives", {
        reason: "RESEARCH_PRODUCER_REQUIRED",
      });
    }
    const now = ctx.clock.now();
    const m = await marketOfBody(ctx, body);
    if (m.state !== "open")
      throw new ApiError("MARKET_CLOSED", `research is published on open markets; ${m.address} is ${m.state}`, { marketAddress: m.address, state: m.state });
    const content = { title: body.title, body: body.body, sources: body.sources.map((s) => ({ url: s.url, title: s.title ?? null })) };
    if (body.researchId === undefined) {
      const note = await insertResearch(ctx.db, { agentId, marketPk: m.pk, ...content }, now);
      return new Reply(201, { ...researchNoteView(m, note), created: true });
    }
    const mine = await researchById(ctx.db, body.researchId);
    // Another agent's note reads exactly like a missing one.
    if (!mine || mine.author.agentId !== agentId || mine.marketPk !== m.pk) {
      throw new ApiError("INVALID_PAYLOAD", `researchId ${body.researchId} is not a note of yours on ${m.address}`, { field: "researchId", location: "body" });
    }
    const updated = await updateResearch(ctx.db, body.researchId, body.expectedVersion!, content, now);
    if (!updated) {
      const current = (await researchById(ctx.db, body.researchId))!;
      throw new ApiError("STALE_UPDATE", `the note is at version ${current.version}, not ${body.expectedVersion}: read it again and resend`, {
        researchId: body.researchId,
        expectedVersion: body.expectedVersion,
        currentVersion: current.version,
      });
    }
    return new Reply(200, { ...researchNoteView(m, updated), created: false });
  },
});
