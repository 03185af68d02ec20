import type { AnyOperation } from "../../registry/types";
import { challengeProposal } from "./challenge";
import { councilAct } from "./council";
import { declareCreatorMia } from "./declare-mia";
import { proposeOutcome } from "./propose";
import { simulateResolution } from "./simulate";
import { castBallot } from "./vote";

export const RESOLVE_OPERATIONS: AnyOperation[] = [proposeOutcome, challengeProposal, declareCreatorMia, castBallot, councilAct, simulateResolution];
