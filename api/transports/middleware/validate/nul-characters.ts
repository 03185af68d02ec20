/**
 * U+0000 in any string of a request: PostgreSQL's text and jsonb cannot hold it, so such a value would fail in the
 * database (a 500) wherever it reached a statement. The fuzz found one such path (`externalId=%00`); refusing the
 * character once, here, closes the class for every operation. Iterative (no recursion): a deep JSON body cannot
 * overflow the stack, and the body size limit bounds the walk.
 */
import type { FieldError, InputLocation } from "../../../platform/errors/invalid-payload";

const MESSAGE = "must not contain the NUL character (U+0000)";

export function nulCharacterErrors(location: InputLocation, value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const stack: { path: string; value: unknown }[] = [{ path: "", value }];
  while (stack.length > 0) {
    const { path, value: v } = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes("\u0000")) errors.push({ location, field: path || "(root)", message: MESSAGE });
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        if (k.includes("\u0000")) errors.push({ location, field: path ? `${path}.(key)` : "(key)", message: MESSAGE });
        stack.push({ path: path ? `${path}.${k}` : k, value: child });
      }
    }
  }
  return errors;
}
