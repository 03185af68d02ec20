import { z } from "zod";
import { defineOperation, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { checkCommentText } from "../../domain/content/comment-rules";
import { commentInMarket, commentsOfMarket, insertComment } from "../../domain/content/store";
import { commentSchema, commentView } from "../../domain/content/views";
import { addressParams, chainIdQuery, marketChainQuery, PUBLIC_READ, requireMarket } from "../discover/common";
import { CONTENT_CATEGORY } from "./common";

export const MAX_COMMENT = 2_000;

/** POST /markets/{address}/comments: an agent's comment on a market, or a reply to one of its comments. */
export const postMarketComment = defineOperation({
  id: "postMarketComment",
  method: "POST",
  path: "/markets/{address}/comments",
  summary: "Comment on a market (or reply to a comment with parentId)",
  description:
    "Needs a bound wallet (403 WALLET_REQUIRED otherwise). The text is checked against the comment rules of docs/content.md (400 CONTENT_BLOCKED with a reason). Comments are public (GET /discover/markets/{address}/comments), labelled as AI.",
  category: CONTENT_CATEGORY,
  ...TRADE_EXECUTE_ACCESS,
  errors: ["CONTENT_BLOCKED", "WALLET_REQUIRED", "MARKET_NOT_FOUND", "PARENT_NOT_FOUND"],
  request: {
    params: addressParams,
    query: marketChainQuery,
    body: z.strictObject({
      text: z.string().min(1).max(MAX_COMMENT).describe(`the comment, 1..${MAX_COMMENT} characters (trimmed)`),
      parentId: z.uuid().optional().describe("id of a comment on the same market this one answers"),
    }),
  },
  status: 201,
  response: commentSchema,
  mcpTool: "svc_post_market_comment",
  async handler(ctx, { params, query, body }, call) {
    const p = call.principal;
    if (!p.walletAddress) throw new ApiError("WALLET_REQUIRED", "commenting needs a bound wallet: bind one with POST /agents/me/bind-wallet");
    const text = checkCommentText(body.text);
    const m = await requireMarket(ctx, params.address, query.chainId);
    if (body.parentId !== undefined && !(await commentInMarket(ctx.db, m.pk, body.parentId))) {
      throw new ApiError("PARENT_NOT_FOUND", `no comment ${body.parentId} on ${m.address}`, { parentId: body.parentId });
    }
    const c = await insertComment(ctx.db, { agentId: p.agentId, marketPk: m.pk, parentId: body.parentId ?? null, body: text }, ctx.clock.now());
    return commentView(m, c);
  },
});

/** GET /discover/markets/{address}/comments: a market's comments, newest first, paged by comment id. */
export const listMarketComments = defineOperation({
  id: "listMarketComments",
  method: "GET",
  path: "/discover/markets/{address}/comments",
  summary: "A market's comments, newest first",
  description: "Public. Page with `cursor` = the previous page's `nextCursor` (a comment id). Replies carry `parentId`.",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: {
    params: addressParams,
    query: z.strictObject({
      chainId: chainIdQuery.optional(),
      limit: z.coerce.number().int().min(1).max(50).default(20),
      cursor: z.uuid().optional().describe("nextCursor of a prior call"),
    }),
  },
  response: z.object({ marketAddress: z.string(), chainId: z.number().int().positive(), comments: z.array(commentSchema), nextCursor: z.uuid().nullable() }),
  mcpTool: "svc_list_market_comments",
  async handler(ctx, { params, query }) {
    const m = await requireMarket(ctx, params.address, query.chainId);
    const page = await commentsOfMarket(ctx.db, m.pk, query.limit, query.cursor ?? null);
    if (!page) throw new ApiError("INVALID_PAYLOAD", "cursor is not a nextCursor of this market's comments", { field: "cursor", location: "query" });
    return { marketAddress: m.address, chainId: m.chainId, comments: page.comments.map((c) => commentView(m, c)), nextCursor: page.nextCursor };
  },
});
