import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { resolutionSourcesDocument } from "../../domain/creation/resolution-sources";
import { PUBLIC_READ } from "./common";

/** GET /discover/resolution-sources: the `resolutionSource` envelopes a new market may name (preflight checks them). */
export const getResolutionSources = defineOperation({
  id: "getResolutionSources",
  method: "GET",
  path: "/discover/resolution-sources",
  summary: "Catalog of the resolutionSource envelope shapes",
  ...PUBLIC_READ,
  request: { query: z.strictObject({}) },
  response: z.object({
    sources: z.array(
      z.object({
        type: z.string(),
        description: z.string(),
        fields: z.record(z.string(), z.string()),
        required: z.array(z.string()),
        example: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
  mcpTool: "svc_get_resolution_sources",
  async handler() {
    return resolutionSourcesDocument();
  },
});
