"use client";
/**
 * Planned work, three ways (`view` in the URL): the plant's list and its month calendar
 * (modules/maintenance/components/planned), or per asset (asset-planned-work.tsx, loaded when chosen: the tree, the
 * asset's jobs and its telemetry are not in the page's first load). Without `view`, a link that
 * names an asset opens it; any other opens the list.
 */
import dynamic from "next/dynamic";
import { TableSkeleton } from "@/components/ui/skeleton";
import { useUrlState } from "@/lib/client/url-state";
import { PlantPlannedWork } from "@/modules/maintenance/components/planned/plant-planned-work";

const AssetPlannedWork = dynamic(() => import("./asset-planned-work").then((module) => module.AssetPlannedWork), {
  ssr: false,
  loading: () => <TableSkeleton />,
});

const VIEWS = [
  { id: "list", label: "List" },
  { id: "calendar", label: "Calendar" },
  { id: "assets", label: "By asset" },
] as const;

export function PlannedWork({ plantId }: { plantId: string }) {
  const { get, update } = useUrlState();
  const requested = get("view");
  const view = requested === "list" || requested === "calendar" || requested === "assets" ? requested : get("asset") ? "assets" : "list";
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Planned work</h1>
          <p className="text-sm text-fg-muted">
            {view === "assets" ? "Pick an asset to see its planned jobs, what was done, and what its sensors recorded around each job." : "Every planned visit of the plant: overdue work first, recurring jobs as their repeats."}
          </p>
        </div>
        <nav aria-label="Planned work views" className="inline-flex rounded-md border border-line p-0.5 text-sm" data-testid="planned-views">
          {VIEWS.map((entry) => (
            <button
              key={entry.id}
              type="button"
              aria-current={view === entry.id ? "page" : undefined}
              // `from`/`to` are days in the list but instants of the telemetry range by asset: neither carries over.
              onClick={() => update({ view: entry.id, page: null, job: null, on: null, from: null, to: null }, { keepPage: true })}
              className={`rounded px-3 py-1 ${view === entry.id ? "bg-accent text-accent-fg" : "hover:bg-surface-2"}`}
            >
              {entry.label}
            </button>
          ))}
        </nav>
      </header>
      {view === "assets" ? <AssetPlannedWork plantId={plantId} /> : <PlantPlannedWork plantId={plantId} view={view} />}
    </div>
  );
}

