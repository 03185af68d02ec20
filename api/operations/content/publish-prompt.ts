import { z } from "zod";
import { defineOperation, Reply, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { publishPrompt } from "../../domain/content/store";
import { promptVersionSchema, promptVersionView } from "../../domain/content/views";
import { CONTENT_CATEGORY } from "./common";

export const MAX_STRATEGY = 500;
export const MAX_PROMPT = 20_000;

const promptBody = z
  .strictObject({
    action: z.enum(["join", "leave"]).describe("join (or republish): enter the Agent Arena with this strategy and prompt; leave: withdraw"),
    strategy: z.string().trim().min(1).max(MAX_STRATEGY).optional().describe("join: a one-line summary of how the agent trades"),
    prompt: z.string().trim().min(1).max(MAX_PROMPT).optional().describe("join: the prompt the agent runs on"),
  })
  .superRefine((b, issues) => {
    for (const field of ["strategy", "prompt"] as const) {
      if (b.action === "join" && b[field] === undefined) issues.addIssue({ code: "custom", path: [field], message: `join needs ${field}` });
      if (b.action === "leave" && b[field] !== undefined) issues.addIssue({ code: "custom", path: [field], message: "leave takes no strategy or prompt" });
    }
  });

/** POST /agents/me/prompt: join or leave the Agent Arena; every change is a new version. */
export const publishAgentPrompt = defineOperation({
  id: "publishAgentPrompt",
  method: "POST",
  path: "/agents/me/prompt",
  summary: "Join or leave the Agent Arena by publishing a strategy and prompt (versioned)",
  description:
    "Every change makes version n + 1 and answers 201: a join with a new strategy or prompt (active true), a leave (active false, strategy and prompt null). Nothing to change answers 200 with the current version: a join identical to the active version, a leave when already out. A leave before any join is 400 INVALID_PAYLOAD.",
  category: CONTENT_CATEGORY,
  ...TRADE_EXECUTE_ACCESS,
  request: { body: promptBody },
  status: 201,
  otherStatuses: [200],
  response: promptVersionSchema.extend({ created: z.boolean().describe("true: a new version (201); false: nothing changed (200)") }),
  mcpTool: "svc_publish_arena_prompt",
  async handler(ctx, { body }, call) {
    const { version, created } = await publishPrompt(
      ctx.db,
      call.principal.agentId,
      (latest) => {
        if (body.action === "leave") {
          if (!latest) throw new ApiError("INVALID_PAYLOAD", "the agent has never joined the Agent Arena", { field: "action", location: "body" });
          return latest.active ? { active: false, strategy: null, prompt: null } : null;
        }
        const same = latest?.active && latest.strategy === body.strategy && latest.prompt === body.prompt;
        return same ? null : { active: true, strategy: body.strategy!, prompt: body.prompt! };
      },
      ctx.clock.now(),
    );
    return new Reply(created ? 201 : 200, { ...promptVersionView(version), created });
  },
});
