/**
 * The request loop first (docs/architecture.md, "Fair use"): on Linux, every thread of this process
 * other than the main one — DuckDB's workers, the libuv pool that runs queries and password hashes,
 * V8's helpers — runs at a lower scheduling priority (10 nice steps below it by default). On a small machine
 * that keeps maintenance requests and page loads answering promptly while heavy telemetry queries
 * or a sign-in flood take what CPU is left, instead of sharing it equally with them.
 *
 * Linux schedules threads, and setpriority(PRIO_PROCESS, tid) on a thread id changes only that
 * thread. Threads are created lazily (the libuv pool at first use, DuckDB with each database), so
 * the process's threads are looked at again every few seconds. Elsewhere this does nothing.
 */
import fs from "node:fs";
import os from "node:os";

const TASKS_DIR = "/proc/self/task";
const RESCAN_MS = 2_000;

/** Lowers every thread but the main one to `nice`; returns how many threads it changed. */
export function lowerWorkerThreads(nice: number, alreadyLowered: Set<number> = new Set()): number {
  let tids: string[];
  try {
    tids = fs.readdirSync(TASKS_DIR);
  } catch {
    return 0; // not Linux (or no /proc): nothing to do
  }
  let changed = 0;
  for (const name of tids) {
    const tid = Number(name);
    if (tid === process.pid || alreadyLowered.has(tid)) continue;
    try {
      os.setPriority(tid, nice);
      alreadyLowered.add(tid);
      changed += 1;
    } catch {
      // The thread ended between the listing and the call: nothing to lower.
    }
  }
  // Forget threads that ended, so that a reused id is lowered again.
  if (alreadyLowered.size > tids.length) {
    const alive = new Set(tids.map(Number));
    for (const tid of alreadyLowered) if (!alive.has(tid)) alreadyLowered.delete(tid);
  }
  return changed;
}

/** Keeps the process's other threads `nice` steps below the request loop while it runs (0 turns it off). */
export function keepRequestLoopFirst(nice: number): () => void {
  if (nice <= 0 || process.platform !== "linux") return () => {};
  // Relative to the request loop's own priority: a server started under `nice` keeps the gap, and
  // no thread is ever asked for a higher priority than it has (which would need privileges).
  const target = Math.min(19, os.getPriority() + nice);
  const lowered = new Set<number>();
  lowerWorkerThreads(target, lowered);
  const timer = setInterval(() => lowerWorkerThreads(target, lowered), RESCAN_MS);
  timer.unref();
  return () => clearInterval(timer);
}
