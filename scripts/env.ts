/**
 * The environment as a script reads it: each script names its variables once, as a zod shape, and gets them checked
 * and typed; a bad value stops the script with one line naming the variable (as the service's configuration does).
 * An empty value counts as unset.
 */
import { z } from "zod";

export function scriptEnv<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") input[key] = value;
  }
  const parsed = z.object(shape).safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue.path[0] ?? "environment");
    throw new Error(`environment: ${variable} is invalid (${JSON.stringify(input[variable] ?? null)}): ${issue.message}`);
  }
  return parsed.data;
}
