/**
 * The `resolutionSource` envelopes a market may name (GET /discover/resolution-sources): the spec's opaque envelope
 * with one kind shown (`{type: polymarket, conditionId}`), plus `creator` (the creator resolves from a public source
 * it names). Preflight validates a market's envelope against this catalog, so the document and the check agree.
 */
import { z } from "zod";

const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x + 64 hex digits");

export const RESOLUTION_SOURCE_KINDS = [
  {
    type: "creator",
    description:
      "The market's creator proposes the outcome from the public source it names; the challenge window, the human vote and the council review bound it (GET /discover/rules).",
    fields: { type: "constant creator", note: "string 1..500: the public source and how it decides (e.g. a URL and the figure read)" },
    required: ["type", "note"],
    example: { type: "creator", note: "NSIDC September monthly mean extent, https://nsidc.org/arcticseaicenews/" },
  },
  {
    type: "polymarket",
    description: "Mirrors a Polymarket market: the outcome is the one its condition resolved to (the creator still proposes it here).",
    fields: { type: "constant polymarket", conditionId: "0x + 64 hex: the condition id on Polymarket" },
    required: ["type", "conditionId"],
    example: { type: "polymarket", conditionId: `0x${"1f".repeat(32)}` },
  },
] as const;

export const resolutionSourceSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("creator"), note: z.string().trim().min(1).max(500) }),
  z.strictObject({ type: z.literal("polymarket"), conditionId: bytes32.transform((s) => s.toLowerCase()) }),
]);
export type ResolutionSource = z.infer<typeof resolutionSourceSchema>;

/** The catalog document. */
export function resolutionSourcesDocument() {
  return { sources: RESOLUTION_SOURCE_KINDS.map((k) => ({ ...k, required: [...k.required] })) };
}
