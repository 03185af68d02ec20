/**
 * The anonymous registration path's human check (spec: `turnstileToken`). Registration asks a TurnstileVerifier; the
 * default one, once TURNSTILE_SECRET_KEY is set, posts the token to Cloudflare's siteverify endpoint
 * (TURNSTILE_VERIFY_URL; tests point it at a local stand-in) and believes only `success: true`. Without a secret
 * (local development) a non-empty token passes, and the discovery's `turnstileSiteKey` stays null so that clients know
 * no widget is needed. docs/auth.md, docs/security.md.
 */
import type { Config } from "../../config";

export type TurnstileOutcome = { ok: true } | { ok: false; errorCodes: string[] } | { ok: "unavailable"; detail: string };

export interface TurnstileVerifier {
  verify(token: string, remoteIp: string | undefined): Promise<TurnstileOutcome>;
}

/** How long siteverify may take before registration answers 503 (the token is not spent on our side). */
const SITEVERIFY_TIMEOUT_MS = 5_000;

/** Cloudflare's siteverify: a form POST of secret, response and remoteip; the answer's `success` decides. */
export function siteverifyTurnstile(secret: string, url: string, fetchImpl: typeof fetch = fetch): TurnstileVerifier {
  return {
    async verify(token, remoteIp) {
      const form = new URLSearchParams({ secret, response: token });
      if (remoteIp) form.set("remoteip", remoteIp);
      let answer: { success?: unknown; "error-codes"?: unknown };
      try {
        const res = await fetchImpl(url, { method: "POST", body: form, signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS) });
        if (!res.ok) return { ok: "unavailable", detail: `siteverify answered ${res.status}` };
        answer = (await res.json()) as typeof answer;
      } catch (err) {
        return { ok: "unavailable", detail: `siteverify cannot be reached (${(err as Error).name})` };
      }
      if (answer.success === true) return { ok: true };
      const codes = Array.isArray(answer["error-codes"]) ? answer["error-codes"].filter((c): c is string => typeof c === "string") : [];
      return { ok: false, errorCodes: codes };
    },
  };
}

/** Local development without a secret: any non-empty token passes (the schema already refuses an empty one). */
const unverified: TurnstileVerifier = { verify: async () => ({ ok: true }) };

export function turnstileVerifierOf(config: Pick<Config, "TURNSTILE_SECRET_KEY" | "TURNSTILE_VERIFY_URL">): TurnstileVerifier {
  return config.TURNSTILE_SECRET_KEY ? siteverifyTurnstile(config.TURNSTILE_SECRET_KEY, config.TURNSTILE_VERIFY_URL) : unverified;
}
