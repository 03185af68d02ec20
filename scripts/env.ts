/**
 * The environment as a script reads it: each script names its variables once, as a zod shape, and gets them checked
 * and typed; a bad value stops the script with one line naming the variable (as the service's configuration does).
 * An empty value counts as unset.
 */
import { join } from "node:path";
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

/**
 * The configuration a bench's in-process service starts from: its own DATA_DIR, logs off, and an empty deployments
 * folder under it. A bench starts no chain, so a deployment left by an earlier `npm start` (its chain now stopped) would
 * make the demo markets and the fee defaults read a chain that is gone.
 */
export function benchServiceEnv(dir: string): { DATA_DIR: string; DEPLOYMENTS_DIR: string; LOG_LEVEL: "silent" } {
  return { DATA_DIR: dir, DEPLOYMENTS_DIR: join(dir, "deployments"), LOG_LEVEL: "silent" };
}
