import { subtask, task } from "hardhat/config";
import { TASK_COMPILE, TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-viem";

// The compiler comes from the `solc` npm package: this machine cannot download one.
// The version is read from that package so that config and compiler can never differ.
const solcVersion: string = require("solc/package.json").version;

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
  if (args.solcVersion !== solcVersion) return runSuper();
  const solc = require("solc");
  return {
    compilerPath: require.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: solcVersion,
    longVersion: solc.version().replace(/\.Emscripten\.clang$/, ""),
  };
});

// Every compile (and so every `hardhat test`) refreshes the typed ABIs in generated/abis.ts.
task(TASK_COMPILE, async (_args, hre, runSuper) => {
  const result = await runSuper();
  const { generateAbis } = require("./scripts/gen-abis");
  generateAbis(hre.config.paths.root);
  return result;
});

const chainId = Number(process.env.CHAIN_ID ?? 8453);

const config: HardhatUserConfig = {
  solidity: {
    version: solcVersion,
    // cancun: OpenZeppelin 5.7 uses mcopy.
    settings: { optimizer: { enabled: true, runs: 200 }, viaIR: true, evmVersion: "cancun" },
  },
  paths: { sources: "contracts", tests: "test/contracts", cache: "cache", artifacts: "artifacts" },
  networks: {
    // The in-process and `hardhat node` chain stand in for Base: same chain id, same EIP-712 domains.
    hardhat: {
      chainId,
      ...(process.env.FORK_URL ? { forking: { url: process.env.FORK_URL } } : {}),
    },
    localhost: { url: process.env.RPC_URL ?? `http://127.0.0.1:${process.env.CHAIN_PORT ?? 8545}`, chainId },
  },
  mocha: { timeout: 120_000 },
};

export default config;
