/**
 * A worker thread that runs one of this project's TypeScript files. A worker does not inherit the tsx loader that the
 * service and the scripts start with (`node --import tsx`, `tsx`), so the thread registers it, then loads the file.
 */
import { Worker } from "node:worker_threads";

export function tsWorker(file: string, workerData: unknown): Worker {
  return new Worker(`require("tsx/cjs"); require(${JSON.stringify(file)});`, { eval: true, workerData });
}
