/**
 * The operator's region rule on PM purchases (spec: POST /pm/buy may answer 403 SERVICE_UNAVAILABLE_IN_REGION).
 * The country comes from one header the operator's proxy sets (REGION_COUNTRY_HEADER, e.g. `cf-ipcountry`) and is
 * trusted only because the operator named it: that proxy must overwrite whatever a client sent under that name. With
 * no header configured, or none on the request, the rule cannot tell and lets the purchase through (docs/security.md).
 */
import type { Config } from "../../config";
import { ApiError } from "../../platform/errors/api-error";

/** Throws SERVICE_UNAVAILABLE_IN_REGION when the trusted country header names a refused country. */
export function assertRegionAllowed(
  config: Pick<Config, "REGION_COUNTRY_HEADER" | "REGION_BLOCKED_COUNTRIES">,
  header: ((name: string) => string | undefined) | undefined,
): void {
  if (!config.REGION_COUNTRY_HEADER || config.REGION_BLOCKED_COUNTRIES.length === 0) return;
  const country = header?.(config.REGION_COUNTRY_HEADER)?.trim().toUpperCase();
  if (country && config.REGION_BLOCKED_COUNTRIES.includes(country)) {
    throw new ApiError("SERVICE_UNAVAILABLE_IN_REGION", `PM purchases are not offered in ${country} on this service`, { country });
  }
}
