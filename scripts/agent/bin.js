#!/usr/bin/env node
// Launcher for `npx pm-agent`: registers tsx so the TypeScript CLI runs without a build step.
"use strict";
require("tsx/cjs");
require("./main.ts")
  .runAgentCli(process.argv.slice(2), { out: (s) => console.log(s), err: (s) => console.error(s), env: process.env })
  .then(
    (code) => process.exit(code),
    (e) => {
      console.error(`pm-agent: ${e?.message ? e.message : String(e)}`);
      process.exit(2);
    },
  );
