import fs from "node:fs";
import { scrypt } from "node:crypto";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { lowerWorkerThreads } from "./thread-priority";

/** The nice value of a thread, field 19 of /proc/<pid>/task/<tid>/stat (after the command's closing paren). */
function niceOf(tid: number): number {
  const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

const threads = () => fs.readdirSync("/proc/self/task").map(Number);

describe.runIf(process.platform === "linux")("thread priority", () => {
  it("lowers DuckDB's and the libuv pool's threads, new ones included, and never the main thread", async () => {
    const before = niceOf(process.pid);
    const lowered = new Set<number>();
    lowerWorkerThreads(before + 5, lowered);
    // Threads made after the first pass: a DuckDB database and the libuv pool at work.
    const instance = await DuckDBInstance.create(":memory:", { threads: "2" });
    const connection = await instance.connect();
    await connection.run("SELECT sum(range) FROM range(2000000)");
    await new Promise((resolve) => scrypt("password", "salt", 32, resolve));
    const fresh = threads().filter((tid) => tid !== process.pid && !lowered.has(tid));
    expect(fresh.length, "threads started after the first pass").toBeGreaterThan(0);
    expect(lowerWorkerThreads(before + 5, lowered)).toBeGreaterThanOrEqual(fresh.length);
    for (const tid of threads()) {
      if (tid === process.pid) expect(niceOf(tid)).toBe(before);
      else if (fs.existsSync(`/proc/self/task/${tid}`)) expect(niceOf(tid), `thread ${tid}`).toBe(before + 5);
    }
    connection.closeSync();
    instance.closeSync();
  });
});
