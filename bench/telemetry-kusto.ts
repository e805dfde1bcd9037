/**
 * The Kusto row of `npm run bench:telemetry` (bench/telemetry.ts): the same query and range sent
 * through ADX's protocol (`POST /v2/rest/query`, the range as `query_datetimescope_from/_to`) and
 * through the spec's endpoint (`POST /insights/v1/telemetry/query/table`), interleaved, medians of
 * `runs`. Both run on the same engine path, so the ratio is the protocol's own cost: reading the
 * request properties and writing the frames around the engine's rows. Aim: ≤ 1.10.
 */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface KustoBenchInput {
  base: string;
  token: string;
  customerId: string;
  /** End of the demo data; each query covers `days` before it. */
  end: Date;
  runs: number;
}

const QUERIES = [
  {
    name: "30d hourly avg/min/max, one data point",
    days: 30,
    kql: 'States | where DeviceId == "RTM1-DEV-007" and Name == "Vibration" | summarize avg(Value), min(Value), max(Value) by bin(Timestamp, 1h) | order by Timestamp asc',
  },
  {
    name: "raw 24h, one data point (1,440 rows)",
    days: 1,
    kql: 'States | where DeviceId == "RTM1-DEV-007" and Name == "Temperature" | project Timestamp, Value | order by Timestamp asc',
  },
];

async function post(url: string, token: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const json = (await response.json()) as unknown;
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

export async function benchKusto(input: KustoBenchInput): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  console.log(`\nKusto protocol ÷ spec endpoint, same engine path (${input.runs} runs after one warm-up, interleaved):`);
  for (const q of QUERIES) {
    const start = new Date(input.end.getTime() - q.days * 86_400_000);
    const spec = { query: q.kql, startTime: start.toISOString(), endTime: input.end.toISOString() };
    // query_datetimescope_to is inclusive, the spec's endTime exclusive (values are milliseconds).
    const kusto = {
      db: input.customerId,
      csl: q.kql,
      properties: { Options: { query_datetimescope_column: "Timestamp", query_datetimescope_from: spec.startTime, query_datetimescope_to: new Date(input.end.getTime() - 1).toISOString() } },
    };
    const timings = { spec: [] as number[], kusto: [] as number[] };
    let specRows: unknown = null;
    let kustoRows: unknown = null;
    const ways = {
      spec: async () => {
        specRows = ((await post(`${input.base}/insights/v1/telemetry/query/table`, input.token, spec)) as { data: { rows: unknown } }).data.rows;
      },
      kusto: async () => {
        const frames = (await post(`${input.base}/v2/rest/query`, input.token, kusto)) as { TableKind?: string; Rows?: unknown }[];
        kustoRows = frames.find((frame) => frame.TableKind === "PrimaryResult")?.Rows;
      },
    };
    for (let run = 0; run <= input.runs; run++) {
      for (const way of run % 2 === 0 ? (["spec", "kusto"] as const) : (["kusto", "spec"] as const)) {
        const t = performance.now();
        await ways[way]();
        if (run > 0) timings[way].push(performance.now() - t);
      }
    }
    const row = {
      query: `kusto /v2/rest/query: ${q.name}`,
      specMs: median(timings.spec),
      kustoMs: median(timings.kusto),
      ratio: median(timings.kusto) / median(timings.spec),
      answer: JSON.stringify(specRows) === JSON.stringify(kustoRows) ? "same" : "DIFFERENT",
    };
    rows.push(row);
    console.log(
      `${row.query.padEnd(66)} spec ${row.specMs.toFixed(1).padStart(7)} ms  kusto ${row.kustoMs.toFixed(1).padStart(7)} ms  ratio ${row.ratio.toFixed(2)} (aim ≤ 1.10)  ${row.answer}`,
    );
  }
  return rows;
}
