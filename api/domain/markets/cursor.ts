/**
 * The keyset cursor of `/discover/markets?sort=new`: base64url of the JSON array `[createdAt, id]` of the last row
 * served (the catalog's created-at epoch ms and row id). Opaque to clients; a string that does not decode is a 400.
 */
import { ApiError } from "../../platform/errors/api-error";

export interface KeysetPosition {
  createdAt: number;
  /** Catalog row id, decimal string. */
  id: string;
}

export function encodeCursor(p: KeysetPosition): string {
  return Buffer.from(JSON.stringify([p.createdAt, p.id])).toString("base64url");
}

export function decodeCursor(cursor: string): KeysetPosition {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error("not base64url");
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && typeof v[1] === "string" && /^\d{1,19}$/.test(v[1])) {
      return { createdAt: v[0] as number, id: v[1] };
    }
  } catch {
    // falls through to the problem below
  }
  throw new ApiError("INVALID_PAYLOAD", "cursor is not a nextCursor this server made", { field: "cursor", location: "query" });
}
