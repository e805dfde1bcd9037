"use client";
/**
 * A monitor's mute windows in its editor (docs/api.md, "Monitors"): the list, each removable, and
 * forms to add a one-off window (from–to, read in the browser's zone and sent as UTC instants) or a
 * weekly one (days, start time, length, zone — a planned shutdown every Sunday). The server checks
 * every window again; its refusal names the field.
 */
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { useFormat } from "@/lib/client/format";
import { MUTE_LIMITS, WEEK_DAYS, type MuteWindow, type TWeekDay } from "@/modules/monitors/contract/mute-windows";

const DAY_LABEL: Record<TWeekDay, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** A `datetime-local` value (the browser's wall clock) as a UTC instant without milliseconds, or null. */
function localToInstant(value: string): string | null {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
}

export function MuteWindowsEditor({ windows, onChange, error }: { windows: MuteWindow[]; onChange: (windows: MuteWindow[]) => void; error?: string }) {
  const format = useFormat();
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [days, setDays] = useState<TWeekDay[]>(["sun"]);
  const [start, setStart] = useState("06:00");
  const [hours, setHours] = useState("8");
  const [zone, setZone] = useState(browserZone);
  const [problem, setProblem] = useState<string | null>(null);
  const full = windows.length >= MUTE_LIMITS.maxWindows;

  const describe = (window: MuteWindow) =>
    window.kind === "once"
      ? `From ${format.dateTime(Date.parse(window.from))} to ${format.dateTime(Date.parse(window.to))}`
      : `Every ${window.days.map((day) => DAY_LABEL[day]).join(", ")} at ${window.start} for ${window.minutes % 60 === 0 ? `${window.minutes / 60} h` : `${window.minutes} min`} (${window.timeZone})`;

  const addOnce = () => {
    const fromAt = localToInstant(from);
    const toAt = localToInstant(to);
    if (!fromAt || !toAt || Date.parse(toAt) <= Date.parse(fromAt)) return setProblem("Choose a start and an end after it.");
    setProblem(null);
    onChange([...windows, { kind: "once", from: fromAt, to: toAt }]);
  };
  const addWeekly = () => {
    const minutes = Math.round(Number(hours) * 60);
    if (days.length === 0 || !/^\d{2}:\d{2}$/.test(start) || !(minutes >= 1 && minutes <= MUTE_LIMITS.maxWeeklyMinutes)) return setProblem("Choose at least one day, a start time and a length of up to 168 hours.");
    setProblem(null);
    onChange([...windows, { kind: "weekly", days, start, minutes, timeZone: zone.trim() || "UTC" }]);
  };

  return (
    <fieldset className="space-y-3" data-testid="mute-windows">
      <legend className="text-sm font-semibold">Mute windows</legend>
      <p className="text-xs text-fg-muted">While muted the monitor records its firings but opens no task and sends nothing; the first run after the window opens the work of what still holds.</p>
      {windows.length === 0 ? (
        <p className="text-sm text-fg-muted">No mute window.</p>
      ) : (
        <ul className="space-y-1">
          {windows.map((window, index) => (
            <li key={index} className="flex flex-wrap items-center gap-2 text-sm">
              <span>{describe(window)}</span>
              <Button size="sm" variant="ghost" aria-label={`Remove mute window: ${describe(window)}`} onClick={() => onChange(windows.filter((_, other) => other !== index))}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {full ? null : (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
          <div className="space-y-2 rounded-md border border-line p-3">
            <p className="text-sm font-medium">Once</p>
            <Field label="Muted from">{(control) => <Input {...control} type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} />}</Field>
            <Field label="Muted until">{(control) => <Input {...control} type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} />}</Field>
            <Button size="sm" onClick={addOnce}>
              Add this window
            </Button>
          </div>
          <div className="space-y-2 rounded-md border border-line p-3">
            <p className="text-sm font-medium">Every week</p>
            <div role="group" aria-label="Days" className="flex flex-wrap gap-2">
              {WEEK_DAYS.map((day) => (
                <label key={day} className="flex items-center gap-1 text-sm">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-accent"
                    checked={days.includes(day)}
                    onChange={(event) => setDays(event.target.checked ? WEEK_DAYS.filter((other) => other === day || days.includes(other)) : days.filter((other) => other !== day))}
                  />
                  {DAY_LABEL[day]}
                </label>
              ))}
            </div>
            <div className="grid grid-cols-2 gap-2">
              <Field label="Starts at">{(control) => <Input {...control} type="time" value={start} onChange={(event) => setStart(event.target.value)} />}</Field>
              <Field label="For hours">{(control) => <Input {...control} inputMode="decimal" value={hours} onChange={(event) => setHours(event.target.value)} />}</Field>
            </div>
            <Field label="Time zone">{(control) => <Input {...control} value={zone} onChange={(event) => setZone(event.target.value)} />}</Field>
            <Button size="sm" onClick={addWeekly}>
              Add weekly window
            </Button>
          </div>
        </div>
      )}
      {problem || error ? (
        <p role="alert" className="text-sm text-danger">
          {problem ?? error}
        </p>
      ) : null}
    </fieldset>
  );
}
