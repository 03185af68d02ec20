/**
 * The snapshot replica's thread (./snapshot-replica.ts): an engine restored from the seed (or a new one), fed the
 * journal's entries, that answers snapshot requests. The first entry that does not replay, or a request for another
 * entry than the last applied, stops it.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { Engine } from "../engine";
import { JournalReplay } from "./journal-replay";
import type { FromReplica, ReplicaSeed, ToReplica } from "./snapshot-replica";

const port = parentPort;
if (port === null) throw new Error("snapshot-replica-worker.ts runs as a worker thread");
const seed = workerData as ReplicaSeed;
const REPLICA_NICE = 10;

// A lower CPU priority for this thread alone (Linux names a thread's id in /proc/thread-self): where cores are short,
// the order path's thread and the database run first. Nice 10 still leaves it about a tenth of a core beside two busy
// threads, more than following the journal needs at the rates measured here (about 10 µs an entry); nice 19 (about
// a seventieth) let it fall behind under a saturating load (docs/journal.md "Snapshots").
try {
  setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), REPLICA_NICE);
} catch {
  // another system: the same priority as the service
}
const replay =
  seed.parts === null
    ? new JournalReplay(seed.config)
    : new JournalReplay(seed.config, { engine: Engine.fromSnapshot(seed.config, seed.parts), seq: seed.seq, at: seed.at });
const send = (m: FromReplica) => port.postMessage(m);

port.on("message", (m: ToReplica) => {
  try {
    if (m.type === "entries") {
      for (const e of m.entries) replay.applyEntry(e.seq, e.at, e.command, e.ops);
      send({ type: "applied", seq: replay.lastSeq });
      return;
    }
    if (m.seq !== replay.lastSeq) throw new Error(`a snapshot after entry ${m.seq} was asked for, but the replica applied up to ${replay.lastSeq}`);
    const parts = replay.engine.snapshot();
    parts.forEach((text, i) => send({ type: "part", seq: m.seq, text, last: i === parts.length - 1 }));
  } catch (err) {
    send({ type: "failed", message: (err as Error).message });
    port.close();
  }
});
