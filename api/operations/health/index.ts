import type { AnyOperation } from "../../registry/types";
import { getProjectionHealth } from "./get-projection-health";

export const HEALTH_OPERATIONS: AnyOperation[] = [getProjectionHealth];
