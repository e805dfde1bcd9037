import "server-only";
/**
 * `POST /api/telemetry/query`: a telemetry query for plants the user may see, brought within the
 * width of the chart that asked (docs/explorer.md, "Automatic resolution"), with the inspector's
 * figures beside the rows. Without `plantIds` it covers all of the user's plants; the plants must
 * belong to one customer, since telemetry is kept per customer. The rows go through as the
 * upstream rendered them; only `meta` is added around them.
 */
import { ZExplorerQueryRequest, type TExplorerQueryMeta, type TQueryResolution, type TQueryStages } from "@/lib/contract/explorer";
import { forbidden, invalidInput } from "@/lib/contract/errors";
import { MAX_RESULT_ROWS } from "@/lib/contract/telemetry";
import { minMaxBin, planResolution, POINTS_PER_PIXEL } from "@/lib/kql/resolution";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import type { ServiceResponse } from "@/lib/platform/http/types";
import type { TelemetryAnswer } from "@/lib/upstream/types";
import { reachablePlants, type ApiRouteSpec } from "../api-handler/handler";

/** `consumed=<n>` of an `x-query-cost` header. */
function costOf(headers: Record<string, string>): number | null {
  const match = /(?:^|;\s*)consumed=([\d.]+)/.exec(headers["x-query-cost"] ?? "");
  return match ? Number(match[1]) : null;
}

function sumStages(answers: readonly TelemetryAnswer[]): TQueryStages {
  const sum = (stage: keyof TQueryStages) => {
    const values = answers.map((answer) => answer.stats?.[stage] ?? null);
    return values.some((value) => value === null) ? null : values.reduce<number>((total, value) => total + value!, 0);
  };
  return { compileMs: sum("compileMs"), queueMs: sum("queueMs"), executeMs: sum("executeMs"), serializeMs: sum("serializeMs") };
}

/**
 * The answer's JSON with `meta` put first: `{"meta":…,"data":…}`. The upstream's text (or parts)
 * starts with `{`; the rows after it are never parsed or copied.
 */
export function withMeta(body: string | readonly Uint8Array[], meta: TExplorerQueryMeta): string | Uint8Array[] {
  const head = `{"meta":${JSON.stringify(meta)},`;
  if (typeof body === "string") return head + body.slice(body.indexOf("{") + 1);
  const [first, ...rest] = body;
  if (!first) return `${head}"data":{"columns":[],"rows":[]}}`;
  return [Buffer.from(head), first.subarray(first.indexOf(0x7b) + 1), ...rest];
}

/** The counts of a min/max plan's count query: total rows, the longest series, the series. */
function counts(answer: TelemetryAnswer): { rows: number; longest: number; series: number } {
  const row = answer.value.data.rows[0] ?? [];
  return { rows: Number(row[0] ?? 0), longest: Number(row[1] ?? 0), series: Number(row[2] ?? 0) };
}

export const telemetryQuery: ApiRouteSpec["run"] = async ({ req, user, upstream }): Promise<ServiceResponse> => {
  const request = parseWith(ZExplorerQueryRequest, readJsonBody(req), "query");
  const reachable = reachablePlants(user, upstream);
  const plants = (request.plantIds ?? reachable.map((plant) => plant.id)).map((id) => {
    const plant = reachable.find((candidate) => candidate.id === id);
    if (!plant) throw forbidden(`You have no access to plant ${id}.`);
    return plant;
  });
  if (plants.length === 0) throw forbidden("You have no plants.");
  if (new Set(plants.map((plant) => plant.customerId)).size > 1) {
    throw invalidInput("Choose plants of one customer: telemetry is kept per customer.", [{ field: "plantIds", problem: "plants of more than one customer" }]);
  }
  const started = performance.now();
  const caller = { customerId: plants[0]!.customerId, userKey: String(user.id) };
  const answers: TelemetryAnswer[] = [];
  const run = async (query: string, countScanned = false) => {
    const answer = await upstream.telemetryQuery(
      { query, startTime: request.startTime, endTime: request.endTime, plantIds: plants.map((plant) => plant.id) },
      caller,
      req.signal,
      countScanned ? { countScanned } : undefined,
    );
    answers.push(answer);
    return answer;
  };

  let resolution: TQueryResolution | null = null;
  let result: TelemetryAnswer;
  const chart = request.resolution && !request.resolution.full ? request.resolution : null;
  const startMs = Date.parse(request.startTime);
  const spanMs = Date.parse(request.endTime) - startMs;
  const plan = chart ? planResolution(request.query, { startMs, endMs: startMs + spanMs, width: chart.width }) : ({ kind: "none" } as const);
  if (plan.kind === "bin") {
    result = await run(plan.query, request.inspect);
    const fullRows = Math.round(result.rowCount * (plan.shownBinMs / plan.sourceBinMs));
    resolution = { method: "bin", sourceBinMs: plan.sourceBinMs, shownBinMs: plan.shownBinMs, fullRows, fullFits: fullRows <= MAX_RESULT_ROWS };
  } else if (plan.kind === "minmax") {
    // Counted first: a series short enough for the chart is drawn as it is.
    const counted = counts(await run(plan.countQuery));
    if (counted.longest <= chart!.width * POINTS_PER_PIXEL) {
      result = await run(request.query, request.inspect);
    } else {
      const binMs = minMaxBin(spanMs, chart!.width, counted.series, MAX_RESULT_ROWS);
      result = await run(plan.reduce(binMs), request.inspect);
      resolution = { method: "minmax", sourceBinMs: null, shownBinMs: binMs, fullRows: counted.rows, fullFits: counted.rows <= MAX_RESULT_ROWS };
    }
  } else {
    result = await run(request.query, request.inspect);
  }

  const costs = answers.map((answer) => costOf(answer.headers));
  const meta: TExplorerQueryMeta = {
    resolution,
    inspection: {
      rowsScanned: result.stats?.rowsScanned ?? null,
      rowsReturned: result.rowCount,
      cost: costs.some((cost) => cost === null) ? null : costs.reduce<number>((total, cost) => total + cost!, 0),
      queries: answers.length,
      stages: sumStages(answers),
    },
  };
  const response = json(null, 200, { ...result.headers, "x-query-duration-ms": String(Math.round(performance.now() - started)) });
  return { ...response, body: withMeta(result.json ?? JSON.stringify(result.value), meta) };
};
