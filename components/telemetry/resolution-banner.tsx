"use client";
/**
 * The line above a chart that says at which resolution it is drawn (docs/explorer.md, "Automatic
 * resolution"), with the way to the full resolution when it fits the row limit, and back.
 */
import { Button } from "@/components/ui/button";
import type { TQueryResolution } from "@/lib/contract/explorer";
import { MAX_RESULT_ROWS } from "@/lib/contract/vocabulary";
import { useFormat } from "@/lib/client/format";
import { resolutionText } from "./resolution-note";

export function ResolutionBanner({ resolution, full, onFull }: { resolution: TQueryResolution | null; full: boolean; onFull: (full: boolean) => void }) {
  const format = useFormat();
  if (full) {
    return (
      <p className="flex flex-wrap items-center gap-2 text-xs text-fg-muted" data-testid="resolution-note">
        Every point the query returns is drawn (full resolution).
        <Button size="sm" variant="ghost" onClick={() => onFull(false)}>
          Fit to the screen
        </Button>
      </p>
    );
  }
  if (!resolution) return null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-xs text-fg-muted" data-testid="resolution-note">
      <span>
        <strong className="font-medium text-fg">{resolutionText(resolution)}</strong> to fit the chart.
      </span>
      {resolution.fullFits ? (
        <Button size="sm" variant="ghost" onClick={() => onFull(true)}>
          Show full resolution ({format.number(resolution.fullRows)} rows)
        </Button>
      ) : (
        <span>
          Full resolution would be {format.number(resolution.fullRows)} rows, more than the {format.number(MAX_RESULT_ROWS)} a query may return.
        </span>
      )}
    </p>
  );
}
