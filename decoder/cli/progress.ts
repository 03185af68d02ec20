/** A progress bar on stderr, only when stderr is a terminal. */
import { SingleBar, Presets } from "cli-progress";

/** Returns an `onProgress` callback and a `stop` function; both do nothing without a TTY. */
export function progressBar(label: string): { onProgress: (done: number, total: number) => void; stop: () => void } {
  if (!process.stderr.isTTY) return { onProgress: () => undefined, stop: () => undefined };
  const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} batches`, stream: process.stderr }, Presets.shades_classic);
  let started = false;
  return {
    onProgress(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
