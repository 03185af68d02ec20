/**
 * Account commands: opening an account at its signup instant (the allowance periods are anchored there), crediting
 * PM from the supply, and adding purchased fill credits. Unknown accounts are otherwise created on first use with
 * `signupAt = at` (EngineState.acctFor).
 */
import { COLLATERAL_ASSET, CreditReason } from "../../decoder";
import { addCredits, allowanceOf } from "./allowance";
import { invalid } from "./rejection";
import type { EngineState } from "./state";
import type { AddFillCreditsCommand, AllowanceView, CreditCommand, CreditResult, OpenAccountCommand, OpenAccountResult } from "./types";
import { addressOf, isInt } from "./validation";
import { balanceView } from "./views";

const REASON_CODES: readonly number[] = Object.values(CreditReason);

/** Idempotent: an account already opened keeps its signupAt; one created on first use gets the real instant. */
export function openAccount(s: EngineState, c: OpenAccountCommand, at: number): OpenAccountResult {
  const addr = addressOf(c.account, "account");
  const signupAt = c.signupAt;
  if (!isInt(signupAt, 0, Number.MAX_SAFE_INTEGER)) return invalid("signupAt must be a non-negative integer (ms)");
  const a = s.accts.get(addr);
  if (!a) s.newAcct(addr, signupAt, true);
  else if (!a.opened) {
    s.u.saveAcct(a);
    a.opened = true;
    a.signupAt = signupAt;
  }
  const acct = s.accts.get(addr)!;
  return { account: addr, signupAt: acct.signupAt, allowance: allowanceOf(s, acct, at) };
}

/** One CREDIT op of PM from the supply, with a CreditReason code or name. */
export function credit(s: EngineState, c: CreditCommand): CreditResult {
  const addr = addressOf(c.account, "account");
  const { amount, reason } = c as { amount: unknown; reason: unknown };
  if (typeof amount !== "bigint" || amount <= 0n || amount > 10n ** 30n) return invalid("amount must be a positive bigint");
  let code: number | undefined;
  if (typeof reason === "number") code = REASON_CODES.includes(reason) ? reason : undefined;
  else if (typeof reason === "string") code = (CreditReason as Record<string, number>)[reason];
  if (code === undefined) return invalid("reason must be a CreditReason code or name");
  s.emit({ type: "CREDIT", account: addr, assetId: COLLATERAL_ASSET, amount, reason: code as CreditReason });
  return { account: addr, balance: balanceView(s, addr, COLLATERAL_ASSET) };
}

/** Purchased fill credits (payment idempotency is the caller's). */
export function addFillCredits(s: EngineState, c: AddFillCreditsCommand, at: number): AllowanceView {
  const acct = s.acctFor(addressOf(c.account, "account"), at);
  if (!isInt(c.fills, 1, 1e12)) return invalid("fills must be a positive integer");
  addCredits(s, acct, c.fills);
  return allowanceOf(s, acct, at);
}
