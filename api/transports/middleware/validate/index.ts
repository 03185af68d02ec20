/**
 * Input validation: path params, query and JSON body through the operation's zod schemas. Malformed JSON, a body
 * that is not JSON (415), schema failures and unknown query properties (strict query schemas) become problems that
 * name the field; so does a NUL character anywhere in the input (./nul-characters.ts). Sets `c.var.input` (parsed) and `c.var.rawInput` (as sent, for idempotency and record hashes).
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../../platform/errors/api-error";
import { fieldErrors, invalidPayload, type FieldError, type InputLocation } from "../../../platform/errors/invalid-payload";
import type { AnyOperation, OperationInput } from "../../../registry/types";
import { nulCharacterErrors } from "./nul-characters";

export interface ValidateVariables {
  input: OperationInput;
  rawInput: { params: Record<string, string>; query: Record<string, string>; body: unknown };
}

declare module "hono" {
  interface ContextVariableMap extends ValidateVariables {}
}

export function validate(op: AnyOperation): MiddlewareHandler {
  const { params: ps, query: qs, body: bs } = op.request;
  return async function validateMiddleware(c, next) {
    const rawParams = c.req.param() as Record<string, string>;
    const url = c.req.url;
    const rawQuery: Record<string, string> = url.includes("?") ? Object.fromEntries(new URL(url).searchParams) : {};
    const rawBody = bs ? await readJsonBody(c.req.raw.headers.get("content-type"), await c.req.text()) : undefined;
    const errors: FieldError[] = [...nulCharacterErrors("params", rawParams), ...nulCharacterErrors("query", rawQuery), ...nulCharacterErrors("body", rawBody)];
    if (errors.length > 0) throw invalidPayload(errors);
    const parse = (location: InputLocation, schema: typeof ps, value: unknown) => {
      if (!schema) return undefined;
      // A refinement that throws on a value its earlier checks already refused (BigInt("1e6")) is a schema bug, but the
      // caller sent a bad value: answer 400 on that part rather than 500. Integer strings use platform/schemas.
      let r: ReturnType<NonNullable<typeof schema>["safeParse"]>;
      try {
        r = schema.safeParse(value);
      } catch {
        errors.push({ location, field: `(${location})`, message: "a value could not be read (check numbers and their types)" });
        return undefined;
      }
      if (!r.success) errors.push(...fieldErrors(location, r.error));
      return r.data;
    };
    const input: OperationInput = { params: parse("params", ps, rawParams), query: parse("query", qs, rawQuery), body: parse("body", bs, rawBody) };
    if (errors.length > 0) throw invalidPayload(errors);
    c.set("input", input);
    c.set("rawInput", { params: rawParams, query: rawQuery, body: rawBody });
    await next();
  };
}

async function readJsonBody(contentType: string | null, text: string): Promise<unknown> {
  if (text.trim() === "") return {};
  if (contentType && !/^application\/([a-z0-9.+-]*\+)?json\b/i.test(contentType)) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", `send the body as application/json, not ${contentType}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError("INVALID_PAYLOAD", `malformed JSON body: ${(err as Error).message}`, { field: "(body)", location: "body" });
  }
}
