import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { OPERATIONS } from "../../operations";
import { API_BASE_PATH, Registry } from "../../registry/registry";
import { currentDeployment, rulesInput } from "../markets/venue-documents";
import { buildRules } from "./rules";

describe("rules references", () => {
  it("names the spec's four references, each a GET route the service registers", () => {
    const registry = new Registry(OPERATIONS);
    const { references } = buildRules(rulesInput(currentDeployment({ CHAIN_ID: 8453 })));
    assert.deepEqual(Object.keys(references).sort(), ["fees", "marketStates", "reputation", "resolutionState"]);
    for (const [name, path] of Object.entries(references)) {
      assert.match(path, /^\/[^/]/, `${name} is a path relative to the API base`);
      const concrete = API_BASE_PATH + path.replace(/\{address\}/g, "0x" + "ab".repeat(20));
      assert.ok(registry.methodsAt(concrete).includes("GET"), `${name}: no GET route at ${path}`);
    }
  });
});
