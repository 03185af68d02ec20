// Ponder resolves its config, schema and handlers from its root (indexer/); the configuration itself lives at the
// repository root, as the layout wants. Ponder's generated ponder-env.d.ts points here.
export { default } from "../ponder.config";
