/**
 * `npx tsx bench/ingest-sink.ts [--readings N] [--batch N] [--repeat N]`: ingestion's ClickHouse sink
 * (lib/service/telemetry/ingest/clickhouse-sink.ts) alone, without MQTT and Sparkplug decoding,
 * into `npm run clickhouse:dev` (started here, with a one-day demo seed in a directory of its own):
 * batches of 10,000 readings (INGEST_BATCH_MAX) of 50 devices × 100 data points written back to
 * back, as the writer hands them over flat out. Prints readings/s and readings per CPU-second of
 * this process and the endpoint together — on a machine shared with other jobs the wall clock
 * measures the neighbours, the CPU time what the sink and the store spend — with the load average.
 * `bench:ingest` measures the whole path (broker, decoding, queries meanwhile).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_PLANTS } from "@/lib/service/demo/catalog";
import { httpExecutor } from "@/lib/service/telemetry/clickhouse/http-executor";
import { openClickHouseTelemetryStore } from "@/lib/service/telemetry/clickhouse/store";
import { startClickHouseDev } from "@/lib/service/telemetry/clickhouse/testing/clickhouse-dev";
import { demoTelemetrySeed } from "@/lib/service/telemetry/demo-data";
import { ClickHouseReadingSink } from "@/lib/service/telemetry/ingest/clickhouse-sink";
import type { Reading } from "@/lib/service/telemetry/ingest/reading";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const READINGS = option("readings", 300_000);
const BATCH = option("batch", 10_000);
const REPEAT = option("repeat", 3);
const CUSTOMERS = [{ id: "CUST-ACME", plants: DEMO_PLANTS.filter((p) => p.customerId === "CUST-ACME") }];

/** CPU seconds of this process and its children (the endpoint), from /proc. */
function cpuSeconds(): number {
  const ticks = (pid: string) => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  };
  let total = ticks("self");
  for (const task of fs.readdirSync("/proc/self/task")) {
    for (const child of fs.readFileSync(`/proc/self/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      try {
        total += ticks(child);
      } catch {
        // A child that ended meanwhile (npx's helpers) spent nothing since.
      }
    }
  }
  return total / 100;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-ingest-sink-"));
const clickhouse = await startClickHouseDev({ dir });
const executor = httpExecutor({ url: clickhouse.url, username: "default", password: "" });
const store = await openClickHouseTelemetryStore({ executor, databasePrefix: "bench_sink_", customers: CUSTOMERS, seed: demoTelemetrySeed({ seed: "plantdesk", days: 1 }), maxQueryMemoryBytes: 1024 * 1048576 });
const sink = new ClickHouseReadingSink(executor, (customerId) => store.database(customerId), 1_000);
// One metadata object per birth, as the decoders hand it over.
const metadata = { data: { Unit: "u" }, message: { jobId: "bench-edge" } };
const start = Date.now() - 3_600_000;
let round = 0;
function batch(): Reading[] {
  const readings: Reading[] = [];
  while (readings.length < BATCH) {
    const timestamp = start + round++;
    for (let d = 0; d < 50 && readings.length < BATCH; d++) {
      for (let m = 0; m < 100 && readings.length < BATCH; m++) {
        readings.push({ plantId: "RTM1", deviceId: `RTM1-BENCH-${String(d).padStart(2, "0")}`, name: `Bench/M${String(m).padStart(3, "0")}`, value: round + m / 100, timestamp, sentAt: timestamp, receivedAt: Date.now(), metadata });
      }
    }
  }
  return readings;
}

const rates: number[] = [];
const perCpu: number[] = [];
try {
  await sink.write("CUST-ACME", batch()); // the series' first rows
  for (let r = 0; r < REPEAT; r++) {
    const cpu = cpuSeconds();
    const started = performance.now();
    let written = 0;
    for (let i = 0; i < READINGS / BATCH; i++) {
      const result = await sink.write("CUST-ACME", batch());
      if (result.written !== BATCH) throw new Error(`a batch wrote ${result.written} of ${BATCH} readings`);
      written += result.written;
    }
    const seconds = (performance.now() - started) / 1000;
    const spent = cpuSeconds() - cpu;
    rates.push(written / seconds);
    perCpu.push(written / spent);
    console.log(`run ${r + 1}: ${written.toLocaleString("en-US")} readings in ${seconds.toFixed(1)} s: ${Math.round(written / seconds).toLocaleString("en-US")}/s; ${spent.toFixed(1)} CPU-s: ${Math.round(written / spent).toLocaleString("en-US")} readings per CPU-second; load average ${os.loadavg()[0]!.toFixed(1)}`);
  }
  console.log(
    `ClickHouse sink into clickhouse:dev, batches of ${BATCH.toLocaleString("en-US")}: median ${Math.round(median(rates)).toLocaleString("en-US")} readings/s, ${Math.round(median(perCpu)).toLocaleString("en-US")} readings per CPU-second (sink + endpoint); ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")}`,
  );
} finally {
  await store.close();
  await clickhouse.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
