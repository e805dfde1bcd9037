"use client";
/**
 * Time range choice: the last 1 h / 24 h / 7 d / 30 d, or an absolute range typed as UTC date and
 * time (telemetry is stored and shown in UTC). The parent owns the range (it lives in the URL).
 */
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { controlClasses } from "@/components/ui/field";
import { RELATIVE_RANGES, type RelativeRange, type TimeRange } from "./explorer-state";

const toInput = (iso: string) => new Date(Date.parse(iso)).toISOString().slice(0, 16);
const fromInput = (value: string) => (value ? new Date(`${value}:00Z`).toISOString() : "");

export function TimeRangePicker({ range, onChange, now }: { range: TimeRange; onChange: (range: TimeRange) => void; now: () => number }) {
  const id = useId();
  const [custom, setCustom] = useState(range.kind === "absolute");
  const initial =
    range.kind === "absolute"
      ? { from: toInput(range.from), to: toInput(range.to) }
      : { from: toInput(new Date(now() - RELATIVE_RANGES[range.last].ms).toISOString()), to: toInput(new Date(now()).toISOString()) };
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState("");
  const [syncedRange, setSyncedRange] = useState(range);
  // A zoom or a shared link changes the range from outside: show it in the inputs.
  if (syncedRange !== range) {
    setSyncedRange(range);
    if (range.kind === "absolute") {
      setCustom(true);
      setDraft({ from: toInput(range.from), to: toInput(range.to) });
    }
  }

  const apply = () => {
    const from = fromInput(draft.from);
    const to = fromInput(draft.to);
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
          <option value="custom">Absolute (UTC)…</option>
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
              From (UTC)
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
              To (UTC)
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
