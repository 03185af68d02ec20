/** The negotiate flow (market creation, docs/market-creation.md), static paths before `{id}` ones. */
import type { AnyOperation } from "../../registry/types";
import { negotiateAccept } from "./accept";
import { negotiateCommitDeploy } from "./commit-deploy";
import { getNegotiation } from "./get-negotiation";
import { negotiatePreflight } from "./preflight";
import { negotiatePrepareDeploy } from "./prepare-deploy";
import { negotiatePropose } from "./propose";
import { negotiateReject } from "./reject";

export const NEGOTIATE_OPERATIONS: AnyOperation[] = [
  negotiatePreflight,
  negotiatePropose,
  getNegotiation,
  negotiateAccept,
  negotiateReject,
  negotiatePrepareDeploy,
  negotiateCommitDeploy,
];
