/**
 * The queries of `npm run bench:telemetry` (bench/telemetry.ts), shared with the ClickHouse ÷ DuckDB
 * comparison (bench/telemetry-clickhouse.ts): KQL, the range each covers, and hand-written DuckDB
 * SQL over the same scope for the compiler's overhead.
 */
import type { ResultColumn, SqlParams } from "@/lib/kql";

interface BenchQuery {
  name: string;
  /** Range length ending at the end of the data. */
  days: number;
  kql: string;
  /** Hand-written SQL over the same scope: `$s`/`$e` are the range, other params as given. */
  sql: string;
  /**
   * When set, the baseline is this KQL through the engine instead of `sql` (a ratio against a simpler
   * query, e.g. series analysis ÷ the make-series it reads); answers are then not compared.
   */
  baselineKql?: string;
  params?: SqlParams;
  columns: ResultColumn[];
}

const str = (value: string) => ({ type: "VARCHAR" as const, value });
const RANGE = `"Timestamp" >= $s AND "Timestamp" < $e`;
const EVENTS_RANGE = `StartTime < $e AND (EndTime IS NULL OR EndTime >= $s)`;

export const QUERIES: BenchQuery[] = [
  {
    name: "raw 24h, one data point",
    days: 1,
    kql: 'States | where DeviceId == "RTM1-DEV-007" and Name == "Temperature" | project Timestamp, Value | order by Timestamp asc',
    sql: `SELECT "Timestamp", "Value" FROM States WHERE ${RANGE} AND DeviceId = $d AND Name = $n ORDER BY "Timestamp" ASC`,
    params: { d: str("RTM1-DEV-007"), n: str("Temperature") },
    columns: [
      { name: "Timestamp", kqlType: "datetime" },
      { name: "Value", kqlType: "dynamic" },
    ],
  },
  {
    name: "30d hourly avg/min/max, one data point",
    days: 30,
    kql: 'States | where DeviceId == "RTM1-DEV-007" and Name == "Vibration" | summarize avg(Value), min(Value), max(Value) by bin(Timestamp, 1h) | order by Timestamp asc',
    sql: `SELECT time_bucket(INTERVAL 1 HOUR, "Timestamp") AS "Timestamp", avg("Value"), min("Value"), max("Value")
          FROM States WHERE ${RANGE} AND DeviceId = $d AND Name = $n GROUP BY 1 ORDER BY 1`,
    params: { d: str("RTM1-DEV-007"), n: str("Vibration") },
    columns: [
      { name: "Timestamp", kqlType: "datetime" },
      { name: "avg_Value", kqlType: "real" },
      { name: "min_Value", kqlType: "dynamic" },
      { name: "max_Value", kqlType: "dynamic" },
    ],
  },
  {
    name: "top alarms by count (30d)",
    days: 30,
    kql: "Events | summarize count() by Name | top 5 by count_",
    sql: `SELECT Name, count(*) AS count_ FROM Events WHERE ${EVENTS_RANGE} GROUP BY Name ORDER BY count_ DESC LIMIT 5`,
    columns: [
      { name: "Name", kqlType: "string" },
      { name: "count_", kqlType: "long" },
    ],
  },
  {
    name: "dcount devices by DataMetadata.Area (24h)",
    days: 1,
    kql: "States | summarize dcount(DeviceId) by Area = tostring(DataMetadata.Area) | order by Area asc",
    sql: `SELECT DataMetadata->>'Area' AS Area, count(DISTINCT DeviceId) FROM States WHERE ${RANGE} GROUP BY 1 ORDER BY 1`,
    columns: [
      { name: "Area", kqlType: "string" },
      { name: "dcount_DeviceId", kqlType: "long" },
    ],
  },
  {
    name: "p95 temperature per device (7d)",
    days: 7,
    kql: 'States | where Name == "Temperature" | summarize percentile(todouble(Value), 95) by DeviceId | order by DeviceId asc',
    sql: `SELECT DeviceId, quantile_disc("Value", 0.95) FROM States WHERE ${RANGE} AND Name = $n GROUP BY 1 ORDER BY 1`,
    params: { n: str("Temperature") },
    columns: [
      { name: "DeviceId", kqlType: "string" },
      { name: "percentile__95", kqlType: "real" },
    ],
  },
  {
    name: "filter on DataMetadata.DeviceType (24h)",
    days: 1,
    kql: 'States | where Name == "MotorCurrent" and DataMetadata.DeviceType == "Pump" | summarize avg(Value) by DeviceId | order by DeviceId asc',
    sql: `SELECT DeviceId, avg("Value") FROM States WHERE ${RANGE} AND Name = $n AND (DataMetadata->>'DeviceType') = $t GROUP BY 1 ORDER BY 1`,
    params: { n: str("MotorCurrent"), t: str("Pump") },
    columns: [
      { name: "DeviceId", kqlType: "string" },
      { name: "avg_Value", kqlType: "real" },
    ],
  },
  {
    name: "take 1000 (30d)",
    days: 30,
    kql: "States | take 1000",
    sql: `SELECT * FROM States WHERE ${RANGE} LIMIT 1000`,
    columns: [
      { name: "DeviceId", kqlType: "string" },
      { name: "Name", kqlType: "string" },
      { name: "Timestamp", kqlType: "datetime" },
      { name: "Value", kqlType: "dynamic" },
      { name: "PlantId", kqlType: "string" },
      { name: "DataMetadata", kqlType: "dynamic" },
      { name: "MessageMetadata", kqlType: "dynamic" },
      { name: "MessageType", kqlType: "string" },
      { name: "AgentTimestamp", kqlType: "datetime" },
      { name: "IngestionTimestamp", kqlType: "datetime" },
    ],
  },
  {
    name: "make-series hourly avg per device (7d)",
    days: 7,
    kql: 'States | where Name == "Temperature" | make-series avg(todouble(Value)) default=0 on Timestamp step 1h by DeviceId | order by DeviceId asc',
    sql: `WITH s AS (SELECT DeviceId, "Timestamp", "Value" FROM States WHERE ${RANGE} AND Name = $n),
          b AS (SELECT time_bucket(INTERVAL 1 HOUR, min("Timestamp")) AS lo, time_bucket(INTERVAL 1 HOUR, max("Timestamp")) AS hi FROM s),
          a AS (SELECT DeviceId, time_bucket(INTERVAL 1 HOUR, "Timestamp") AS t, avg("Value") AS v FROM s GROUP BY ALL),
          g AS (SELECT d.DeviceId, unnest(generate_series(b.lo, b.hi, INTERVAL 1 HOUR)) AS t FROM (SELECT DISTINCT DeviceId FROM a) AS d, b)
          SELECT g.DeviceId, to_json(list(coalesce(a.v, 0) ORDER BY g.t)) AS avg_Value,
                 to_json(list(strftime(g.t, '%Y-%m-%dT%H:%M:%S.%gZ') ORDER BY g.t)) AS "Timestamp"
          FROM g LEFT JOIN a ON a.DeviceId = g.DeviceId AND a.t = g.t GROUP BY g.DeviceId ORDER BY g.DeviceId`,
    params: { n: str("Temperature") },
    columns: [
      { name: "DeviceId", kqlType: "string" },
      { name: "avg_Value", kqlType: "dynamic" },
      { name: "Timestamp", kqlType: "dynamic" },
    ],
  },
  {
    name: "join Events with States per device (7d)",
    days: 7,
    kql: 'Events | summarize alarms = count() by DeviceId | join (States | where Name == "Temperature" | summarize readings = count(), avgValue = avg(todouble(Value)) by DeviceId) on DeviceId | project DeviceId, alarms, readings, avgValue | order by DeviceId asc',
    sql: `SELECT e.DeviceId, e.alarms, s.readings, s.avgValue
          FROM (SELECT DeviceId, count(*) AS alarms FROM Events WHERE ${EVENTS_RANGE} GROUP BY 1) AS e
          JOIN (SELECT DeviceId, count(*) AS readings, avg("Value") AS avgValue FROM States WHERE ${RANGE} AND Name = $n GROUP BY 1) AS s
          ON e.DeviceId = s.DeviceId ORDER BY 1`,
    params: { n: str("Temperature") },
    columns: [
      { name: "DeviceId", kqlType: "string" },
      { name: "alarms", kqlType: "long" },
      { name: "readings", kqlType: "long" },
      { name: "avgValue", kqlType: "real" },
    ],
  },
  {
    name: "anomalies of every series of a plant ÷ make-series (30d)",
    days: 30,
    kql: 'States | where PlantId == "RTM1" | make-series v = avg(todouble(Value)) default = 0 on Timestamp step 1h by DeviceId, Name | extend (flag, score, baseline) = series_decompose_anomalies(v) | project DeviceId, Name, flag, score, baseline',
    baselineKql: 'States | where PlantId == "RTM1" | make-series v = avg(todouble(Value)) default = 0 on Timestamp step 1h by DeviceId, Name',
    sql: "",
    columns: [],
  },
  {
    name: "running delta with prev(), one data point (30d)",
    days: 30,
    kql: 'States | where DeviceId == "RTM1-DEV-007" and Name == "Temperature" | sort by Timestamp asc | extend Delta = todouble(Value) - prev(todouble(Value)) | project Timestamp, Delta',
    sql: `SELECT "Timestamp", "Value" - lag("Value") OVER (ORDER BY "Timestamp" ASC NULLS FIRST) AS Delta FROM States WHERE ${RANGE} AND DeviceId = $d AND Name = $n ORDER BY "Timestamp" ASC NULLS FIRST`,
    params: { d: str("RTM1-DEV-007"), n: str("Temperature") },
    columns: [
      { name: "Timestamp", kqlType: "datetime" },
      { name: "Delta", kqlType: "real" },
    ],
  },
  {
    name: "count (30d)",
    days: 30,
    kql: "States | count",
    // Straight on the readings: a count reads no series column (docs/architecture.md, "Plans that read only what they need").
    sql: `SELECT count(*) AS "Count" FROM StateValues WHERE ${RANGE}`,
    columns: [{ name: "Count", kqlType: "long" }],
  },
];
