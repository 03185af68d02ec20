/** The meta operations: documents that describe the API itself, all derived from the served registry. */
import type { AnyOperation } from "../../registry/types";
import { getCatalog } from "./get-catalog";
import { getChangelog } from "./get-changelog";
import { getChangelogSigningKey } from "./get-changelog-signing-key";
import { getOpenApi } from "./get-openapi";
import { listCapabilities } from "./list-capabilities";

export const META_OPERATIONS: AnyOperation[] = [getOpenApi, listCapabilities, getCatalog, getChangelog, getChangelogSigningKey];
