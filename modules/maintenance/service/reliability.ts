/**
 * The reliability record (docs/api.md, "Reliability"), computed from the job records of a window:
 * the failure jobs (a close-out's failureCode) summed per asset, code and month in one SQL for both
 * engines, then rolled up the asset tree in memory (an asset counts its components' jobs). The rows
 * are bounded by assets × codes × months, never by the number of jobs.
 */
import { ApiError } from "@/lib/contract/errors";
import { ZReliabilityQuery, type TReliability, type TReliabilityFigures } from "@/modules/maintenance/contract/reliability";
import { parseWith } from "@/lib/platform/http/body";
import { quoteId } from "./context";
import type { Operation } from "./operation";
import type { FailureGroup, ReliabilityReads } from "@/modules/maintenance/store/reliability";

const DAY_HOURS = 24;
const daysIn = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

function figures(groups: readonly FailureGroup[], windowHours: number): TReliabilityFigures {
  const failures = groups.reduce((sum, group) => sum + group.failures, 0);
  // Hundredths of an hour, so sums of decimal strings stay exact to what was recorded.
  const downtimeHours = Math.round(groups.reduce((sum, group) => sum + group.downtime, 0) * 100) / 100;
  const byCode = new Map<string, number>();
  for (const group of groups) byCode.set(group.code, (byCode.get(group.code) ?? 0) + group.failures);
  return {
    failures,
    downtimeHours,
    mttrHours: failures > 0 ? downtimeHours / failures : null,
    mtbfHours: failures > 0 ? (windowHours - downtimeHours) / failures : null,
    availability: Math.max(0, (windowHours - downtimeHours) / windowHours),
    failureCodes: [...byCode].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1)),
  };
}

/** The months of the window, each with the days of it that fall inside the window. */
function monthsOf(start: string, end: string): { month: string; first: string; last: string }[] {
  const months: { month: string; first: string; last: string }[] = [];
  let cursor = start.slice(0, 7);
  while (cursor <= end.slice(0, 7)) {
    const [year, month] = cursor.split("-").map(Number) as [number, number];
    const lastDay = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
    months.push({ month: cursor, first: `${cursor}-01` < start ? start : `${cursor}-01`, last: lastDay > end ? end : lastDay });
    cursor = new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 7);
  }
  return months;
}

async function reliabilityOf(reads: ReliabilityReads, plantId: string, query: Record<string, string>): Promise<TReliability> {
  const { startDate, endDate, assetTagNumber } = parseWith(ZReliabilityQuery, query, "query parameters");
  const assets = await reads.assetTree(plantId);
  if (assetTagNumber !== undefined && !assets.some((asset) => asset.tag === assetTagNumber)) {
    throw new ApiError("ASSET_NOT_FOUND", `No asset with tag number ${quoteId(assetTagNumber)} in plant ${plantId}.`, [{ field: "assetTagNumber", problem: "unknown tag number" }]);
  }
  const groups = await reads.failureGroups(plantId, startDate, endDate);

  // Each asset and the assets above it: a job on a component counts for the machine, line and area.
  const parentOf = new Map(assets.map((asset) => [asset.tag, asset.parent]));
  const ancestorsAndSelf = (tag: string): string[] => {
    const chain: string[] = [];
    for (let at: string | null | undefined = tag; at && !chain.includes(at); at = parentOf.get(at)) chain.push(at);
    return chain;
  };
  const inScope = (tag: string) => assetTagNumber === undefined || ancestorsAndSelf(tag).includes(assetTagNumber);
  const scoped = groups.filter((group) => inScope(group.tag));
  const byAsset = new Map<string, FailureGroup[]>();
  for (const group of scoped) {
    for (const tag of ancestorsAndSelf(group.tag)) {
      if (!inScope(tag)) continue;
      if (!byAsset.has(tag)) byAsset.set(tag, []);
      byAsset.get(tag)!.push(group);
    }
  }
  const windowHours = daysIn(startDate, endDate) * DAY_HOURS;
  const names = new Map(assets.map((asset) => [asset.tag, asset.name]));
  return {
    startDate,
    endDate,
    windowHours,
    assetTagNumber: assetTagNumber ?? null,
    plant: figures(scoped, windowHours),
    assets: [...byAsset]
      .map(([tag, own]) => ({ assetTagNumber: tag, name: names.get(tag) ?? tag, ...figures(own, windowHours) }))
      .sort((a, b) => b.failures - a.failures || (a.assetTagNumber < b.assetTagNumber ? -1 : 1)),
    months: monthsOf(startDate, endDate).map(({ month, first, last }) => {
      const hours = daysIn(first, last) * DAY_HOURS;
      return { month, windowHours: hours, ...figures(scoped.filter((group) => group.month === month), hours) };
    }),
  };
}

export const reliabilityOperations = {
  getReliability: async (ctx, plant, { query }) => ({ value: await reliabilityOf(ctx.reliability, plant.id, query) }),
} satisfies Record<string, Operation>;

export const RELIABILITY_DOCS = {
  getReliability: {
    summary: "Reliability: MTBF, MTTR, availability (extension)",
    description:
      "Over the window from `startDate` 00:00 to the end of `endDate` (UTC; at most 3,660 days): `failures` are the job records whose close-out carried a `failureCode`; `downtimeHours` sums their `downtimeHours` (default `totalTimeUsedInHours`); `mttrHours` = downtime ÷ failures, `mtbfHours` = (window hours − downtime) ÷ failures (null without failures), `availability` = (window hours − downtime) ÷ window hours; `failureCodes` most first. `plant` counts each job once (only the asset's subtree with `assetTagNumber`); `assets` lists every asset with a failure, counting its components' jobs with its own; `months` gives the same figures per calendar month cut to the window. An unknown asset gives 412 ASSET_NOT_FOUND.",
    responseDescription: "The reliability figures.",
    errors: ["ASSET_NOT_FOUND"] as const,
  },
};
