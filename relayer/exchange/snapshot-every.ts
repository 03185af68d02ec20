/**
 * Journal entries between two engine snapshots (docs/journal.md "Snapshots"): the most a start replays after the
 * newest one, about 1 s at the replay rate measured here. Its own module so the service's configuration reads the
 * default without loading the exchange.
 */
export const DEFAULT_SNAPSHOT_EVERY = 50_000;
