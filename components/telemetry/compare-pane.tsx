"use client";
/**
 * The second half of the split view: the same query over an earlier range (explorer-state.ts
 * `compare`), run on its own and drawn beside (or, on narrow screens, below) the first, with its
 * own resolution note. Only line charts are compared: other results say so.
 */
import dynamic from "next/dynamic";
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { planResult } from "./chart-plan";
import { ResolutionBanner } from "./resolution-banner";
import { withUnits } from "./series";
import { fetchTelemetryQuery, type TelemetryQueryRequest } from "./telemetry-api";

const SmallMultiplesChart = dynamic(() => import("./small-multiples").then((m) => m.SmallMultiplesChart), {
  ssr: false,
  loading: () => <Skeleton className="h-80 w-full" />,
});

export function ComparePane({
  request,
  title,
  units,
  timeZone,
  full,
  onFull,
}: {
  request: TelemetryQueryRequest;
  title: string;
  units: Map<string, string> | undefined;
  timeZone: string;
  full: boolean;
  onFull: (full: boolean) => void;
}) {
  const result = useQuery({
    queryKey: ["telemetry-query", request],
    queryFn: ({ signal }) => fetchTelemetryQuery(request, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
  });
  const outcome = result.data;
  const plan = useMemo(() => (outcome ? planResult(outcome.result, outcome.render) : null), [outcome]);
  const series = useMemo(() => (plan?.view === "line" ? withUnits(plan.series, (name) => units?.get(name), request.query) : null), [plan, units, request.query]);
  const domain: [number, number] = [Date.parse(request.startTime), Date.parse(request.endTime)];
  return (
    <section aria-label={title} className="flex min-w-0 flex-col gap-2" data-testid="compare-pane">
      <h3 className="text-sm font-medium">{title}</h3>
      {result.isPending ? (
        <div role="status" aria-live="polite">
          <span className="sr-only">Running the comparison…</span>
          <Skeleton className="h-80 w-full" />
        </div>
      ) : result.isError ? (
        <ErrorState error={result.error} title="The comparison failed" onRetry={() => void result.refetch()} />
      ) : outcome && outcome.result.rows.length === 0 ? (
        <EmptyState title="No rows">Nothing matched in this earlier range.</EmptyState>
      ) : series ? (
        <>
          <ResolutionBanner resolution={outcome?.meta?.resolution ?? null} full={full} onFull={onFull} />
          <SmallMultiplesChart series={series} domain={domain} timeZone={timeZone} height={320} label={`Line chart, ${title.toLowerCase()}`} />
        </>
      ) : (
        <EmptyState title="Nothing to compare">Split view compares line charts over time; this result is not one.</EmptyState>
      )}
    </section>
  );
}
