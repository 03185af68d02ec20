/** Turns zod issues into one INVALID_PAYLOAD problem that names the offending fields (`field`, `errors[]`). */
import type { z } from "zod";
import { ApiError } from "./api-error";

export type InputLocation = "params" | "query" | "body";

export interface FieldError {
  location: InputLocation;
  field: string;
  message: string;
}

export function fieldErrors(location: InputLocation, error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((k) => ({ location, field: base ? `${base}.${k}` : k, message: "unknown property" }));
    }
    return [{ location, field: base || "(root)", message: issue.message }];
  });
}

export function invalidPayload(errors: FieldError[]): ApiError {
  const first = errors[0];
  const detail = errors.map((e) => `${e.location} ${e.field}: ${e.message}`).join("; ");
  return new ApiError("INVALID_PAYLOAD", detail, { field: first?.field, location: first?.location, errors });
}
