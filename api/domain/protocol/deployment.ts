/**
 * The deployment artifact `deployments/<chainId>.json` as the service reads it. Its shape, place, reader and writer
 * live once, in decoder/deployment.ts (every part may import the decoder, and the `decode` CLI reads the file too);
 * this is the service's name for it. Parsed with zod at the edge, so a stale or hand-edited file fails with a clear
 * message instead of deep inside a route.
 */
export { deploymentFile, deploymentSchema, readDeployment, type Deployment } from "../../../decoder/deployment";
