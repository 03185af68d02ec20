/** Regenerates decoder/test-vectors/*.json: `npx tsx decoder/test-vectors/generate.ts`. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildJournalVectors, buildMalformedJournalVectors, buildMerkleVectors } from "./build";

async function main(): Promise<void> {
  writeFileSync(join(__dirname, "merkle.json"), `${JSON.stringify(await buildMerkleVectors(), null, 2)}\n`);
  writeFileSync(join(__dirname, "journal.json"), `${JSON.stringify(await buildJournalVectors(), null, 2)}\n`);
  writeFileSync(join(__dirname, "journal-malformed.json"), `${JSON.stringify(buildMalformedJournalVectors(), null, 2)}\n`);
}

void main();
