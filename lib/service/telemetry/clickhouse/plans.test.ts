/**
 * Plans that read only what they need, ClickHouse's side (docs/architecture.md, "Plans that read
 * only what they need"): `States` is one wide table there, so the store's statements must read it
 * once, join nothing, and read only the columns the query uses. EXPLAIN of the store's compiled
 * statements on chdb.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compileKql } from "@/lib/kql";
import { clickhouseDialect, clickhouseParams } from "@/lib/kql/dialect/clickhouse";
import { sharedChdb } from "@/lib/service/telemetry/testing/clickhouse.test-support";
import { clickhouseSources, createCustomerSchema } from "./sql";

const DATABASE = `plans_${process.pid}_${Date.now()}`;
const executor = sharedChdb();
const scope = { start: new Date(Date.UTC(2026, 0, 1)), end: new Date(Date.UTC(2026, 0, 2)), plantIds: null };

beforeAll(async () => {
  for (const statement of createCustomerSchema(DATABASE)) await executor.command(statement);
  // A row in the range: an empty table plans as ReadNothing.
  await executor.command(`INSERT INTO "${DATABASE}"."States" (DeviceId, Name, "Timestamp", "Value", PlantId, MessageType) VALUES ('DEV-1', 'Temperature', '2026-01-01 01:00:00.000', 1, 'P1', 'state')`);
}, 60_000);

/** EXPLAIN's steps and the columns read from `States` (EXPLAIN actions = 1 lists them). */
async function planOf(kql: string, explain = "PLAN actions = 1"): Promise<string> {
  const compiled = compileKql(kql, { sources: clickhouseSources(DATABASE, scope), dialect: clickhouseDialect });
  const output = await executor.query(`EXPLAIN ${explain} ${compiled.sql} FORMAT TabSeparatedRaw`, clickhouseParams(compiled.params));
  return Buffer.from(output).toString("utf8");
}

describe("ClickHouse plans of the telemetry tables", () => {
  it.each([
    ["States | count", ["Timestamp"]],
    ['States | where Name == "Temperature" | summarize avg(Value) by bin(Timestamp, 1h)', ["Name", "Timestamp", "Value"]],
    ["States | summarize count() by Name", ["Name", "Timestamp"]],
  ])("%s reads States once, joins nothing, reads only its columns", async (kql, columns) => {
    const plan = await planOf(kql);
    // One read: the table's parts, or for a count the exact count of its parts (no row read at all).
    expect(plan.match(/ReadFrom(MergeTree|PreparedSource \(_exact_count_projection\))/g), plan).toHaveLength(1);
    expect(plan, plan).not.toMatch(/Join/i);
    const read = plan.match(/Columns?: ([^\n]*)/g)?.join(" ") ?? plan;
    for (const column of ["DataMetadata", "MessageMetadata", "DeviceId", "PlantId"].filter((c) => !columns.includes(c))) {
      expect(read, plan).not.toContain(column);
    }
  });

  it.each([
    "States | summarize count() by Name",
    "States | summarize avg(Value), max(Timestamp) by DeviceId, Name",
    'States | where Name == "Temperature" | summarize count() by DeviceId',
  ])("%s aggregates straight over the one read: no join in its pipeline, the names grouped as stored", async (kql) => {
    // ClickHouse has no series table to join (Name, DeviceId are LowCardinality columns of States):
    // the pipeline must not grow a join, nor a second read of States, for a grouping by data point.
    const pipeline = await planOf(kql, "PIPELINE");
    expect(pipeline, pipeline).not.toMatch(/Join|FillingRightJoinSide|CreatingSets/i);
    expect(pipeline, pipeline).toMatch(/AggregatingTransform/);
    expect(pipeline.match(/MergeTree(Select|Thread|InOrder)/g)?.length ?? 0, pipeline).toBeGreaterThan(0);
  });

  it.each([
    ['States | where DeviceId == "DEV-1" and Name == "Temperature" | summarize max(Value)', ["DeviceId", "Name"]],
    ['States | where Name == "Temperature" | summarize avg(Value) by bin(Timestamp, 1h)', ["Name"]],
  ])("%s resolves the data point filter on the primary key before the scan", async (kql, columns) => {
    // The table is ordered by (PlantId, DeviceId, Name, Timestamp): a filter on Name/DeviceId selects
    // granules by the primary key index (ClickHouse's form of resolving to series before the scan).
    const plan = await planOf(kql, "PLAN indexes = 1");
    const primaryKey = plan.slice(plan.indexOf("PrimaryKey"));
    expect(plan, plan).toContain("PrimaryKey");
    for (const column of columns) expect(primaryKey.split(/\n\s*(MinMax|Partition|Skip)\b/)[0], plan).toContain(column);
    expect(plan, plan).not.toMatch(/Join/i);
  });

  it.each(["1h", "1d", "1m"])("bin(Timestamp, %s) is one toStartOfInterval per row: no choice per row, no arithmetic", async (size) => {
    // An if() choosing per row between toStartOfHour (1970 … 2106 only) and ADX's arithmetic made the
    // 30-day hourly average of one data point 4–5× hand-written SQL (issue 38).
    const plan = await planOf(`States | summarize avg(Value) by bin(Timestamp, ${size})`);
    expect(plan, plan).toContain("toStartOfInterval(");
    expect(plan, plan).not.toMatch(/\bif\(|positiveModulo|toUnixTimestamp64Micro/);
    expect(plan, plan).not.toMatch(/Join/i);
  });
});
