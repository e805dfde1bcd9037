"use client";
/**
 * Planned work by asset (the `view=assets` of planned-work.tsx, loaded only when chosen): the asset
 * tree on the left; for the chosen asset its planned jobs over the next six months, its job history,
 * and its telemetry with jobs, tasks and alarms on one time axis (`asset`, `search`, `range` or
 * `from`+`to`, `points`). Kept out of the planned page's first load (the list is what opens).
 */
import { AssetMonitors } from "@/modules/monitors/components/monitor-links";
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/field";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { addDays } from "@/lib/client/dates";
import { useToday } from "@/lib/client/format";
import { fetchAllPages } from "@/lib/client/api";
import { operationApiPath } from "@/lib/contract/api";
import { maintenanceKeys, useAssets, useLookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TAsset, TPlannedJob } from "@/modules/maintenance/contract/maintenance";
import { useMe } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import { parseExplorerState, type TimeRange } from "@/components/telemetry/explorer-state";
import { AssetJobHistory } from "./asset-job-history";
import { AssetTelemetry } from "./asset-telemetry";
import { ancestorTags, buildAssetTree } from "./asset-tree";
import { AssetTreeView } from "./asset-tree-view";
import { PlannedTimeline } from "./planned-timeline";

/** "Next six months", as the planners count it. */
const HORIZON_DAYS = 183;

export function AssetPlannedWork({ plantId }: { plantId: string }) {
  const { params, get, update } = useUrlState();
  const assets = useAssets(plantId);
  const tree = useMemo(() => buildAssetTree(assets.data ?? []), [assets.data]);
  const [search, setSearch] = useState(get("search"));
  const selectedTag = get("asset") || null;
  const selected = selectedTag ? tree.byTag.get(selectedTag) : undefined;
  const [loadedAt] = useState(() => Date.now());

  // The range parameters are the explorer's (`range`, `from`, `to`); default: the last 7 days.
  const rangeParams = new URLSearchParams(params.toString());
  if (!rangeParams.has("range") && !rangeParams.has("from")) rangeParams.set("range", "7d");
  const range = parseExplorerState(rangeParams, { query: "", plantId }).range;
  const pointsParam = params.get("points");
  const points = pointsParam === null ? null : pointsParam.split(",").filter(Boolean);

  const setRange = (next: TimeRange) =>
    update(next.kind === "relative" ? { range: next.last, from: null, to: null } : { range: null, from: next.from, to: next.to }, { keepPage: true });

  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[18rem_minmax(0,1fr)] xl:grid-cols-[20rem_minmax(0,1fr)]">
        <Card className="flex max-h-96 flex-col lg:sticky lg:top-4 lg:max-h-[calc(100dvh-6rem)]" aria-labelledby="assets-title">
          <div className="flex flex-col gap-2 border-b border-line p-3">
            <h2 id="assets-title" className="text-base font-semibold">
              Assets {assets.data ? <span className="font-normal text-fg-muted">({assets.data.length})</span> : null}
            </h2>
            <label htmlFor="asset-search" className="sr-only">
              Search assets by tag, serial number, external reference or name
            </label>
            <Input
              id="asset-search"
              type="search"
              placeholder="Search tag, serial, reference…"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                update({ search: event.target.value }, { replace: true, keepPage: true });
              }}
            />
          </div>
          <div className="min-h-40 overflow-auto p-1">
            {assets.isPending ? (
              <TableSkeleton rows={10} columns={1} />
            ) : assets.isError ? (
              <ErrorState error={assets.error} title="Could not load the assets" onRetry={() => void assets.refetch()} />
            ) : assets.data.length === 0 ? (
              <EmptyState title="No assets">This plant has no registered assets.</EmptyState>
            ) : (
              <AssetTreeView tree={tree} search={search} selectedTag={selectedTag} onSelect={(tag) => update({ asset: tag, points: null }, { keepPage: true })} />
            )}
          </div>
        </Card>

        <div className="flex min-w-0 flex-col gap-4">
          {!selectedTag ? (
            <Card>
              <EmptyState title="Choose an asset">Pick a machine or component in the tree (arrow keys move, Enter chooses).</EmptyState>
            </Card>
          ) : assets.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : !selected ? (
            <Card>
              <EmptyState title={`No asset ${selectedTag}`}>This plant has no asset with that tag number.</EmptyState>
            </Card>
          ) : (
            <AssetDetails
              key={selected.asset.tagNumber}
              plantId={plantId}
              tag={selected.asset.tagNumber}
              path={ancestorTags(selected).reverse()}
              range={range}
              points={points}
              now={loadedAt}
              onRangeChange={setRange}
              onPointsChange={(next) => update({ points: next.join(",") || "," }, { keepPage: true })}
              asset={selected.asset}
            />
          )}
        </div>
      </div>
    </div>
  );
}

function AssetDetails({
  plantId,
  tag,
  path,
  asset,
  range,
  points,
  now,
  onRangeChange,
  onPointsChange,
}: {
  plantId: string;
  tag: string;
  path: string[];
  asset: TAsset;
  range: TimeRange;
  points: string[] | null;
  now: number;
  onRangeChange: (range: TimeRange) => void;
  onPointsChange: (points: string[]) => void;
}) {
  const me = useMe();
  const today = useToday();
  const horizonEnd = addDays(today, HORIZON_DAYS);
  const planned = useQuery({
    queryKey: maintenanceKeys.jobsPlanned(plantId, "asset", tag, horizonEnd),
    // No start date: everything still planned up to the horizon, overdue work included.
    queryFn: ({ signal }) => fetchAllPages<TPlannedJob>(operationApiPath("listJobsPlanned", { plantId }), { assetTagNumber: tag, endDate: horizonEnd }, signal),
  });
  const canSeeTelemetry = me.data?.permissions.includes("telemetry:query") ?? false;
  const lookups = useLookupLabels(plantId);

  return (
    <>
      <Card className="p-4" aria-labelledby="asset-title">
        <p className="text-xs text-fg-muted">{path.length > 0 ? path.join(" › ") : "Top level"}</p>
        <h2 id="asset-title" className="flex flex-wrap items-center gap-2 text-xl font-semibold">
          <span className="font-mono">{asset.tagNumber}</span> <span>{asset.name}</span>
          <Badge tone={asset.criticality === "A" ? "danger" : asset.criticality === "B" ? "warning" : "neutral"}>Criticality {asset.criticality}</Badge>
        </h2>
        <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
          {(
            [
              ["Type", asset.assetType],
              ["Serial number", asset.serialNumber],
              ["External reference", asset.externalReference],
              ["Location", asset.location],
              ["Manufacturer", asset.manufacturer],
              ["Model", asset.model],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs text-fg-muted">{label}</dt>
              <dd className="truncate">{value || "—"}</dd>
            </div>
          ))}
        </dl>
      </Card>

      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <Card aria-labelledby="planned-title">
          <CardHeader id="planned-title" title="Planned jobs" description="Overdue and due in the next six months" />
          <CardBody>
            {planned.isPending ? (
              <TableSkeleton rows={4} columns={3} />
            ) : planned.isError ? (
              <ErrorState error={planned.error} title="Could not load planned jobs" onRetry={() => void planned.refetch()} />
            ) : (
              <PlannedTimeline jobs={planned.data} today={today} horizonEnd={horizonEnd} labels={lookups} />
            )}
          </CardBody>
        </Card>
        <Card aria-labelledby="history-title">
          <CardHeader id="history-title" title="Job history" description="Completed work, newest first" />
          <CardBody>
            <AssetJobHistory plantId={plantId} tag={tag} />
          </CardBody>
        </Card>
      </div>

      <AssetMonitors plantId={plantId} tag={tag} />

      {canSeeTelemetry && (
        <Card aria-labelledby="telemetry-title">
          <CardHeader id="telemetry-title" title="Telemetry around the work" description="Data points with jobs done, tasks, planned jobs and alarms on one time axis (UTC or your time, as chosen in the explorer)" />
          <CardBody>
            <AssetTelemetry
              plantId={plantId}
              tag={tag}
              range={range}
              points={points}
              plannedJobs={planned.data ?? []}
              now={now}
              onRangeChange={onRangeChange}
              onPointsChange={onPointsChange}
            />
          </CardBody>
        </Card>
      )}
    </>
  );
}
