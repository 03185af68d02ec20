import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { MARKET_STATES, TERMINAL_STATES } from "./states";
import { MARKET_TRANSITIONS, isTransitionAllowed, transitionsFrom } from "./transitions";

describe("transitions table", () => {
  it("names only known states, gives every non-terminal state a way out and terminal states none", () => {
    for (const t of MARKET_TRANSITIONS) assert.ok(MARKET_STATES.includes(t.from) && MARKET_STATES.includes(t.to));
    for (const s of MARKET_STATES) {
      const terminal = (TERMINAL_STATES as readonly string[]).includes(s);
      assert.equal(transitionsFrom(s).length === 0, terminal, s);
    }
  });

  it("lists each (from, to, by, via) once; clock rows are clock events, the others operations", () => {
    const keys = MARKET_TRANSITIONS.map((t) => `${t.from}>${t.to}>${t.by}>${t.via}`);
    assert.equal(new Set(keys).size, keys.length);
    const clockEvents = new Set(["closeTimeReached", "creatorWindowMissed", "keeperWindowElapsed", "challengeWindowElapsed", "voteEnded", "councilSilent"]);
    for (const t of MARKET_TRANSITIONS) assert.equal(t.by === "clock", clockEvents.has(t.via), `${t.from} -> ${t.to} via ${t.via}`);
    assert.equal(isTransitionAllowed("creator_mia", "human_voting"), true);
    assert.equal(isTransitionAllowed("creator_proposal", "human_voting"), false, "a challenge goes through the challenge state");
  });
});
