/** Conformance: ADX's sketches and weighted percentiles (functions/sketches.ts), the pages' printed outputs first. */
import { describe, expect, it } from "vitest";
import { conformance, runOn } from "../../service/telemetry/testing/kql-conformance";

const BUILDSCHEMA = "buildschema() walks JSON of any depth: not spelled in ClickHouse SQL yet";

const LATENCY = "datatable(ReqCount:long, LatencyBucket:long) [8, 10, 6, 20, 3, 30, 1, 40]";

describe("sketches", () => {
  conformance([
    // merge-tdigest-function, rank-tdigest-function, tdigest-aggregation-function, hll-merge-function: the pages' outputs.
    {
      q: "range x from 1 to 10 step 1 | extend y = x + 10 | summarize tdigestX = tdigest(x), tdigestY = tdigest(y) | project merged = merge_tdigest(tdigestX, tdigestY) | project percentile_tdigest(merged, 100)",
      rows: [[20]],
      columns: ["percentile_tdigest_merged"],
      types: ["dynamic"],
    },
    {
      q: "range x from 1 to 10 step 1 | extend y = x + 10 | summarize tdigestX = tdigest(x), tdigestY = tdigest(y) | project merged = merge_tdigest(tdigestX, tdigestY) | project percentile_tdigest(merged, 100, typeof(long)), r = percentile_tdigest(merged, 50, typeof(real))",
      rows: [[20, 10]],
      columns: ["percentile_tdigest_merged", "r"],
      types: ["long", "real"],
    },
    { q: "range x from 1 to 1000 step 1 | summarize t_x = tdigest(x) | project rank_of_685 = rank_tdigest(t_x, 685)", rows: [[685]], columns: ["rank_of_685"], types: ["real"] },
    { q: "datatable(V:real, W:long) [1.0, 1, 2.0, 2] | summarize TD = tdigest(V, W) | project P50 = percentile_tdigest(TD, 50)", rows: [[2]], columns: ["P50"], types: ["dynamic"] },
    {
      q: "range x from 1 to 10 step 1 | extend y = x + 10 | summarize hll_x = hll(x), hll_y = hll(y) | project merged = hll_merge(hll_x, hll_y) | project dcount_hll(merged)",
      rows: [[20]],
      columns: ["dcount_hll_merged"],
      types: ["long"],
    },
    // percentilesw-aggregation-function: the pages' outputs.
    { q: `${LATENCY} | summarize percentilesw(LatencyBucket, ReqCount, 50, 75, 99.9)`, rows: [[20, 20, 40]], columns: ["percentile_LatencyBucket_50", "percentile_LatencyBucket_75", "percentile_LatencyBucket_99_9"], types: ["long", "long", "long"] },
    { q: `${LATENCY} | summarize percentilesw_array(LatencyBucket, ReqCount, 50, 75, 99.9)`, rows: [[[20, 20, 40]]], columns: ["percentiles_LatencyBucket"], types: ["dynamic"] },
    { q: `${LATENCY} | summarize percentilesw_array(LatencyBucket, ReqCount, dynamic([50, 75, 99.9]))`, rows: [[[20, 20, 40]]], columns: ["percentiles_LatencyBucket"], types: ["dynamic"] },
    { q: `${LATENCY} | summarize percentilew(LatencyBucket, ReqCount, 0), p = percentilew(todouble(LatencyBucket), ReqCount, 44.5)`, rows: [[10, 20]], columns: ["percentile_LatencyBucket_0", "p"], types: ["long", "real"] },
    // With every weight 1, the digest's percentiles are percentile()'s nearest rank.
    {
      q: "range x from 1 to 7 step 1 | summarize t = tdigest(x * 1.5), p = percentile(x * 1.5, 30), q = percentilew(x * 1.5, 1, 30) | project a = percentile_tdigest(t, 30), p, q, r = percentiles_array_tdigest(t, 0, 30, 100), s = percentiles_array_tdigest(t, dynamic([50])), pr = percentrank_tdigest(t, 4.6)",
      rows: [[4.5, 4.5, 4.5, [1.5, 4.5, 10.5], [6], 300 / 7]],
    },
    // Merged by groups and over the rows (the aggregate merge), nulls left out, no rows.
    {
      q: "datatable(g:string, x:long) ['a', 1, 'a', 2, 'b', 3, 'b', long(null), 'c', 3] | summarize t = tdigest(x), h = hll(x) by g | summarize t = merge_tdigest(t), u = tdigest_merge(t), h = hll_merge(h) | project p = percentile_tdigest(t, 50), n = rank_tdigest(u, 3), d = dcount_hll(h)",
      rows: [[2, 4, 3]],
    },
    { q: "datatable(x:long) [] | summarize t = tdigest(x), h = hll(x) | project p = percentile_tdigest(t, 50), r = rank_tdigest(t, 1), d = dcount_hll(h)", rows: [[null, null, 0]] },
    { q: "datatable(x:long) [] | summarize p = percentilew(x, x, 50), a = percentilesw_array(x, x, 50)", rows: [[null, null]] },
    // hll of strings and dynamic values, with a predicate, and the accuracy argument accepted.
    {
      q: "datatable(s:string, d:dynamic) ['a', dynamic([1]), 'b', dynamic({'k': 2}), 'a', dynamic([1])] | summarize h = hll(s, 2), hd = hll(d), hi = hll_if(s, s != 'a') | project dcount_hll(h), dcount_hll(hd), dcount_hll(hi)",
      rows: [[2, 2, 1]],
    },
    { q: "range x from 1 to 5 step 1 | summarize h = hll(x % 2), t = tdigest(x) | project dcount_hll(hll_merge(h, h, h)), percentile_tdigest(merge_tdigest(t, t, t), 50)", rows: [[2, 3]] },
    // buildschema-aggregation-function: the page's output; then nulls, nested arrays, no rows.
    {
      q: 'datatable(value: dynamic) [dynamic({"x":1, "y":3.5}), dynamic({"x":"somevalue", "z":[1, 2, 3]}), dynamic({"y":{"w":"zzz"}, "t":["aa", "bb"], "z":["foo"]})] | summarize buildschema(value)',
      rows: [[{ x: ["long", "string"], y: ["double", { w: "string" }], z: { "`indexer`": ["long", "string"] }, t: { "`indexer`": "string" } }]],
      columns: ["schema_value"],
      types: ["dynamic"],
      knownGap: { clickhouse: BUILDSCHEMA },
    },
    { q: 'datatable(v: dynamic) [dynamic(null), dynamic({"a": [[true], []], "b": null}), dynamic(7)] | summarize s = buildschema(v)', rows: [[[{ a: { "`indexer`": { "`indexer`": "bool" } } }, "long"]]], knownGap: { clickhouse: BUILDSCHEMA } },
    { q: "datatable(v: dynamic) [] | summarize s = buildschema(v)", rows: [[null]], knownGap: { clickhouse: BUILDSCHEMA } },
  ]);

  // The sketches are exact and grow with what they hold: past the limit on lists (budget.ts) they are refused by name.
  for (const engine of ["duckdb", "clickhouse"] as const) {
    it(`${engine}: a sketch holds at most 100,000 elements`, async () => {
      const atLimit = await runOn(engine, "range x from 1 to 100000 step 1 | summarize h = hll(x) | project dcount_hll(h)");
      expect(atLimit.rows).toEqual([[100_000]]);
      for (const [fn, call] of [["hll", "hll(x)"], ["hll_if", "hll_if(x, x > 0)"], ["tdigest", "tdigest(x)"]]) {
        await expect(runOn(engine, `range x from 1 to 100001 step 1 | summarize ${call}`)).rejects.toThrow(new RegExp(`${fn} would build a list longer than the limit of 100,000 elements`));
      }
      const halves = "range x from 1 to 100001 step 1 | summarize h = hll(x), t = tdigest(x) by odd = x % 2";
      await expect(runOn(engine, `${halves} | summarize hll_merge(h)`)).rejects.toThrow(/hll_merge would build a list longer than the limit/);
      await expect(runOn(engine, `${halves} | summarize merge_tdigest(t)`)).rejects.toThrow(/merge_tdigest would build a list longer than the limit/);
    });
  }

  it("clickhouse: refuses buildschema by name", async () => {
    await expect(runOn("clickhouse", "datatable(v: dynamic) [] | summarize buildschema(v)")).rejects.toThrow(/buildschema\(\) is not supported on the ClickHouse engine/);
  });
});
