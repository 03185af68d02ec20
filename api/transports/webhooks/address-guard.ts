/**
 * SSRF guard of webhook targets: http(s) URLs only, no credentials in them, and every address the host resolves to
 * outside private, loopback, link-local, CGNAT, multicast and reserved ranges. Checked when a subscription is saved
 * and again at every delivery through the socket's own DNS lookup (`guardedLookup`), so a name that later resolves
 * to 127.0.0.1 (DNS rebinding) is refused at connect time. WEBHOOKS_ALLOW_PRIVATE=true turns the range check off
 * (local development and tests).
 */
import { BlockList, isIP, type LookupFunction } from "node:net";
import { lookup as dnsLookup } from "node:dns";
import { promises as dns } from "node:dns";
import { ApiError } from "../../platform/errors/api-error";

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, bits, "ipv6");

/** True for an address a webhook must not reach. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as its IPv4. */
export function isBlockedAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return blocked.check(mapped[1], "ipv4");
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, "ipv4");
  if (family === 6) return blocked.check(ip, "ipv6");
  return true;
}

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
