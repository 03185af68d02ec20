#!/usr/bin/env node
// Launcher for `npx decode`: registers tsx so the TypeScript CLI runs without a build step.
"use strict";
require("tsx/cjs");
require("../cli/main.ts")
  .runCli(process.argv.slice(2))
  .then(
    (code) => process.exit(code),
    (e) => {
      console.error(`decode: ${e?.code ? `${e.code}: ` : ""}${e?.message ? e.message : String(e)}`);
      process.exit(2);
    },
  );
