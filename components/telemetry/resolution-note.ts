/**
 * What a chart says about the resolution it shows (docs/explorer.md, "Automatic resolution"):
 * "1-min data shown at 30 min", "Samples shown as low and high per 10 min", and whether the full
 * resolution can be asked for. Pure: formatted in the reader's language by the caller's number format.
 */
import type { TQueryResolution } from "@/lib/contract/explorer";

const UNITS = [
  { ms: 86_400_000, short: "d", long: "day" },
  { ms: 3_600_000, short: "h", long: "hour" },
  { ms: 60_000, short: "min", long: "min" },
  { ms: 1_000, short: "s", long: "s" },
] as const;

/** A bin as words: `30 min`, `1 h`, `2 d`, `15 s`; `adjective` gives `1-min`, `1-hour`. */
export function binText(ms: number, adjective = false): string {
  const unit = UNITS.find((candidate) => ms >= candidate.ms && ms % candidate.ms === 0) ?? UNITS.find((candidate) => ms >= candidate.ms) ?? UNITS[3];
  const count = Math.round((ms / unit.ms) * 100) / 100;
  return adjective ? `${count}-${unit.long}` : `${count} ${unit.short}`;
}

/** The chart's note: what it shows, in one sentence. */
export function resolutionText(resolution: TQueryResolution): string {
  return resolution.method === "bin" && resolution.sourceBinMs !== null
    ? `${binText(resolution.sourceBinMs, true)} data shown at ${binText(resolution.shownBinMs)}`
    : `Samples shown as each series' low and high per ${binText(resolution.shownBinMs)}`;
}
