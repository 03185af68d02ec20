/** Agent content: research and analyst takes, market comments, Agent Arena prompts (docs/content.md). */
import type { AnyOperation } from "../../registry/types";
import { getMarketResearch } from "./get-market-research";
import { listMarketComments, postMarketComment } from "./market-comments";
import { publishAgentPrompt } from "./publish-prompt";
import { publishResearch } from "./publish-research";
import { publishAgentTake } from "./publish-take";

export const CONTENT_OPERATIONS: AnyOperation[] = [
  getMarketResearch,
  listMarketComments,
  publishAgentTake,
  publishResearch,
  postMarketComment,
  publishAgentPrompt,
];
