/**
 * The venue's default fee schedule (relayer/pricing/fees.ts): what the catalog stamps on a market listed without
 * rates (imports, tests) and what the deployment initialises the factories with. `GET /discover/fees` and new markets
 * read the factories' live defaults instead (api/domain/creation/factory-fees.ts).
 */
import { FEE_DEFAULTS } from "../../../relayer/pricing/fees";

export { FEE_DEFAULTS };
