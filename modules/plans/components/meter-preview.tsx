"use client";
/**
 * A meter plan's live preview: the meter query run as the editor's user over the plant's
 * telemetry, the way the service reads a meter (modules/maintenance/service/plan-meter.ts: the last 30
 * days ending now, and again ending 7 days ago for the rate), then the next due reading and its
 * forecast date. Runs a moment after typing stops, or at once with Ctrl+Enter or the button.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { addDays } from "@/lib/client/dates";
import { useFormat, useToday } from "@/lib/client/format";
import { fetchTelemetryQuery, queryProblems, type QueryProblem } from "@/components/telemetry/telemetry-api";
import { daysUntil, nextDueReading, readNumber, type PlanFormValues } from "./plan-form";

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 30;
const RATE_DAYS = 7;
const SETTLE_MS = 800;

async function readingAt(plantId: string, query: string, endMs: number, signal?: AbortSignal): Promise<number | null> {
  const outcome = await fetchTelemetryQuery({ query, plantIds: [plantId], startTime: new Date(endMs - WINDOW_DAYS * DAY_MS).toISOString(), endTime: new Date(endMs).toISOString() }, signal);
  const value = outcome.result.rows[0]?.[0];
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : null;
}

export function MeterPreview({ plantId, values, run, onRun, onProblems }: { plantId: string; values: PlanFormValues; run: number; onRun: () => void; onProblems: (problems: QueryProblem[]) => void }) {
  const format = useFormat();
  const today = useToday();
  const [settled, setSettled] = useState(values.query);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(values.query), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [values.query]);

  const preview = useQuery({
    queryKey: ["plant", plantId, "meter-preview", settled, run],
    queryFn: async ({ signal }) => {
      // A whole minute, so a re-render does not make a new range (and a new request).
      const now = Math.floor(Date.now() / 60_000) * 60_000;
      const reading = await readingAt(plantId, settled, now, signal);
      const before = reading === null ? null : await readingAt(plantId, settled, now - RATE_DAYS * DAY_MS, signal);
      return { reading, ratePerDay: reading === null || before === null ? null : Math.max(0, (reading - before) / RATE_DAYS), at: now };
    },
    enabled: settled.trim().length > 0,
    retry: false,
    staleTime: 60_000,
  });
  useEffect(() => {
    onProblems(preview.error ? queryProblems(preview.error) : []);
  }, [preview.error, onProblems]);

  const every = readNumber(values.meterEvery, format.locale);
  const start = readNumber(values.startReading, format.locale) ?? 0;
  const data = preview.data;
  const due = data?.reading != null && every !== null && every > 0 ? nextDueReading(data.reading, start, every) : null;
  const days = data?.reading != null && due !== null ? daysUntil(data.reading, due, data.ratePerDay) : null;
  const unit = values.meterUnit.trim();

  return (
    <section aria-labelledby="meter-preview-title" className="space-y-2 rounded-md border border-line bg-surface-2 p-3" data-testid="meter-preview">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="meter-preview-title" className="mr-auto text-sm font-semibold">
          The meter now
        </h3>
        <Button size="sm" onClick={onRun} disabled={preview.isFetching}>
          {preview.isFetching ? "Reading…" : "Read again"}
        </Button>
      </div>
      <div aria-live="polite" className="text-sm">
        {preview.isPending && preview.fetchStatus !== "idle" ? (
          <Skeleton className="h-10 w-full" />
        ) : preview.error ? (
          <p className="text-danger wrap-anywhere">The meter could not be read: {errorMessage(preview.error)}</p>
        ) : !data ? (
          <p className="text-fg-muted">Write a query to read the meter.</p>
        ) : data.reading === null ? (
          <p className="text-warning">The query returned no number over the last {WINDOW_DAYS} days: the plan cannot open work until it does.</p>
        ) : (
          <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-3">
            <div>
              <dt className="text-xs text-fg-muted">Reading</dt>
              <dd className="font-medium" data-testid="meter-reading">
                {format.number(data.reading)} {unit}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-fg-muted">Rate (last {RATE_DAYS} days)</dt>
              <dd>{data.ratePerDay === null ? "Not known yet" : `${format.number(data.ratePerDay)} ${unit} a day`}</dd>
            </div>
            <div>
              <dt className="text-xs text-fg-muted">Next due</dt>
              <dd>
                {due === null ? "Set “every” to forecast" : `at ${format.number(due)} ${unit}`}
                {due !== null ? <span className="block text-xs text-fg-muted">{days === null ? "the meter is not moving: no forecast" : `forecast ${format.date(addDays(today, days))}`}</span> : null}
              </dd>
            </div>
          </dl>
        )}
      </div>
    </section>
  );
}
