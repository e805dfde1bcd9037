"use client";
/**
 * Time range choice: the last 1 h / 24 h / 7 d / 30 d, or an absolute range typed as date and time
 * on the reader's chosen clock (UTC, as telemetry is stored, or their own: time-preference.ts). The
 * URL always holds UTC instants; the parent owns the range.
 */
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { controlClasses } from "@/components/ui/field";
import { RELATIVE_RANGES, type RelativeRange, type TimeRange } from "./explorer-state";

/** An instant as a datetime-local input's text, on the UTC or the browser's clock. */
function toInput(iso: string, utc: boolean): string {
  const date = new Date(Date.parse(iso));
  if (utc) return date.toISOString().slice(0, 16);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local input's text as an ISO instant (read on the UTC or the browser's clock). */
function fromInput(value: string, utc: boolean): string {
  if (!value) return "";
  const date = new Date(utc ? `${value}:00Z` : `${value}:00`);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

export function TimeRangePicker({ range, onChange, now, utc = true }: { range: TimeRange; onChange: (range: TimeRange) => void; now: () => number; utc?: boolean }) {
  const id = useId();
  const [custom, setCustom] = useState(range.kind === "absolute");
  const initial =
    range.kind === "absolute"
      ? { from: toInput(range.from, utc), to: toInput(range.to, utc) }
      : { from: toInput(new Date(now() - RELATIVE_RANGES[range.last].ms).toISOString(), utc), to: toInput(new Date(now()).toISOString(), utc) };
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState("");
  const [synced, setSynced] = useState({ range, utc });
  // A zoom, a shared link or the clock switch changes what the inputs must show.
  if (synced.range !== range || synced.utc !== utc) {
    setSynced({ range, utc });
    if (range.kind === "absolute") {
      setCustom(true);
      setDraft({ from: toInput(range.from, utc), to: toInput(range.to, utc) });
    }
  }
  const clock = utc ? "UTC" : "local time";

  const apply = () => {
    const from = fromInput(draft.from, utc);
    const to = fromInput(draft.to, utc);
    if (!from || !to || Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to))) return setError("Enter both a start and an end.");
    if (Date.parse(from) >= Date.parse(to)) return setError("The start must be before the end.");
    if (Date.parse(to) - Date.parse(from) > 400 * 86_400_000) return setError("A range can span at most 400 days.");
    setError("");
    onChange({ kind: "absolute", from, to });
  };

  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-range`} className="text-sm font-medium">
          Time range
        </label>
        <select
          id={`${id}-range`}
          className={`${controlClasses} w-44`}
          value={custom ? "custom" : range.kind === "relative" ? range.last : "custom"}
          onChange={(event) => {
            const value = event.target.value;
            if (value === "custom") return setCustom(true);
            setCustom(false);
            onChange({ kind: "relative", last: value as RelativeRange });
          }}
        >
          {Object.entries(RELATIVE_RANGES).map(([key, { label }]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
          <option value="custom">Absolute ({clock})…</option>
        </select>
      </div>
      {custom && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-from`} className="text-sm font-medium">
              From ({clock})
            </label>
            <input
              id={`${id}-from`}
              type="datetime-local"
              className={`${controlClasses} w-52`}
              value={draft.from}
              onChange={(event) => setDraft({ ...draft, from: event.target.value })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-to`} className="text-sm font-medium">
              To ({clock})
            </label>
            <input
              id={`${id}-to`}
              type="datetime-local"
              className={`${controlClasses} w-52`}
              value={draft.to}
              onChange={(event) => setDraft({ ...draft, to: event.target.value })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </div>
          <Button type="submit">Apply range</Button>
          {error && (
            <p id={`${id}-error`} role="alert" className="basis-full text-xs font-medium text-danger">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
