/**
 * Calls `onOrphaned` once this process's parent is gone (it was re-parented). npm does not always pass SIGTERM
 * down to the script it runs (its `sh -c` dies and the script lives on); watching the parent closes that gap, so
 * stopping `npm start` in any way stops the whole stack.
 */
export function watchParent(onOrphaned: () => void, everyMs = 500): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
