/**
 * SSRF guard of webhook targets: http(s) URLs only, no credentials in them, and every address the host resolves to
 * outside private, loopback, link-local, CGNAT, multicast and reserved ranges (api/platform/net/blocked-addresses.ts).
 * Checked when a subscription is saved and again at every delivery through the socket's own DNS lookup (`guardedLookup`), so a name that later resolves
 * to 127.0.0.1 (DNS rebinding) is refused at connect time. WEBHOOKS_ALLOW_PRIVATE=true turns the range check off
 * (local development and tests).
 */
import { isIP, type LookupFunction } from "node:net";
import { lookup as dnsLookup } from "node:dns";
import { promises as dns } from "node:dns";
import { ApiError } from "../../platform/errors/api-error";
import { isBlockedAddress } from "../../platform/net/blocked-addresses";

/** Parses and checks a target URL; throws INVALID_PAYLOAD (field `url`) naming the reason. */
export async function checkTargetUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError("INVALID_PAYLOAD", "url must be an absolute http(s) URL", { field: "url" });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ApiError("INVALID_PAYLOAD", "url must use https (or http)", { field: "url" });
  if (url.username || url.password) throw new ApiError("INVALID_PAYLOAD", "url must not carry credentials", { field: "url" });
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new ApiError("INVALID_PAYLOAD", `url host ${host} does not resolve`, { field: "url" });
    }
  }
  const bad = addresses.find(isBlockedAddress);
  if (bad !== undefined)
    throw new ApiError("INVALID_PAYLOAD", `url host ${host} resolves to ${bad}, a private, loopback, link-local or reserved address`, {
      field: "url",
      reason: "private_address",
    });
  return url;
}

/** A `lookup` for http.request that refuses blocked addresses at connect time. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return (callback as (e: Error | null, a: unknown, f?: number) => void)(err, []);
      const list = addresses as unknown as { address: string; family: number }[];
      const ok = allowPrivate ? list : list.filter((a) => !isBlockedAddress(a.address));
      if (ok.length === 0) {
        const e = Object.assign(new Error(`${hostname} resolves only to blocked addresses`), { code: "EBLOCKEDADDRESS" });
        return (callback as (e: Error | null, a: unknown, f?: number) => void)(e, []);
      }
      if ((options as { all?: boolean }).all) return (callback as (e: null, a: unknown) => void)(null, ok);
      return (callback as (e: null, a: string, f: number) => void)(null, ok[0].address, ok[0].family);
    });
  };
}
