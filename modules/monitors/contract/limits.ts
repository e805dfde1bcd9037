/**
 * Condition monitoring's bounds and timespans as plain values, without zod: the schemas in
 * monitors.ts are built from them, and the monitor editor reads them without loading zod
 * (docs/architecture.md, "What the browser loads").
 */

/** A KQL timespan literal the schedule understands: a whole number and a unit, e.g. `5m`, `1h`, `2d`. */
const TIMESPAN = /^(\d{1,6})(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a timespan such as `5m`, or null when it is not one. */
export function timespanMs(text: string): number | null {
  const match = TIMESPAN.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : null;
}

export const MONITOR_LIMITS = {
  minEveryMs: 60_000,
  maxEveryMs: 86_400_000,
  minLookbackMs: 60_000,
  maxLookbackMs: 30 * 86_400_000,
  /** Distinct keys one evaluation may return: more is an error, never a storm of tasks. */
  maxKeys: 50,
  maxKeyColumns: 8,
  maxEmails: 20,
  /** Evaluations one preview may replay. */
  maxPreviewEvaluations: 200,
  /** Monitors per plant. */
  maxPerPlant: 500,
} as const;
