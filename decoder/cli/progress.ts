/**
 * A progress bar on stderr, only when stderr is a terminal. It has two phases: the chunked getLogs scan
 * (blocks scanned) and then applying the batches found (batches applied).
 */
import { SingleBar, Presets } from "cli-progress";

/** The callbacks a replay reports progress to; all do nothing without a TTY. */
export interface Progress {
  /** After each getLogs chunk. */
  readonly onScan: (doneBlocks: bigint, totalBlocks: bigint) => void;
  /** After each applied batch. */
  readonly onProgress: (done: number, total: number) => void;
  readonly stop: () => void;
}

/** A bar labelled `label` on `stream` (default stderr); inert unless the stream is a TTY. */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { onScan: () => undefined, onProgress: () => undefined, stop: () => undefined };
  const bar = new SingleBar({ format: `${label} {phase} [{bar}] {value}/{total} {unit}`, stream }, Presets.shades_classic);
  let phase: "scan" | "apply" | null = null;
  const enter = (next: "scan" | "apply", total: number) => {
    const payload = next === "scan" ? { phase: "scan", unit: "blocks" } : { phase: "apply", unit: "batches" };
    if (phase === null) bar.start(total, 0, payload);
    else if (phase !== next) {
      bar.setTotal(total);
      bar.update(0, payload);
    }
    phase = next;
  };
  return {
    onScan(done, total) {
      enter("scan", Number(total));
      bar.update(Number(done));
    },
    onProgress(done, total) {
      enter("apply", total);
      bar.update(done);
    },
    stop() {
      if (phase !== null) bar.stop();
    },
  };
}
