/**
 * Asserts that a contract call reverts with the custom error `name`. Hardhat names the error when it can map it;
 * when it cannot ("unrecognized custom error"), the 4-byte selector in the return data is matched instead.
 */
import { expect } from "chai";
import { toFunctionSelector, type Abi } from "viem";
type AbiError = Extract<Abi[number], { type: "error" }>;

export async function expectRevert(call: Promise<unknown>, abi: Abi, name: string): Promise<void> {
  const item = abi.find((x): x is AbiError => x.type === "error" && x.name === name);
  if (!item) throw new Error(`the ABI has no error ${name}`);
  const selector = toFunctionSelector(`${item.name}(${item.inputs.map((i) => i.type).join(",")})`);
  try {
    await call;
  } catch (err) {
    const message = String((err as Error).message);
    expect(message.includes(name) || message.includes(selector), `expected ${name} (${selector}), got: ${message.slice(0, 3000)}`).to.equal(true);
    return;
  }
  expect.fail(`expected a revert with ${name}`);
}
