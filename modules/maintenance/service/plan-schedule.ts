/**
 * When a plan is due (docs/api.md, "Maintenance plans"), as pure functions of the plan, what it has
 * opened and "today": a calendar plan's occurrences, the next one to open, and a meter plan's next
 * due reading and its forecast date. Dates are UTC calendar dates, `YYYY-MM-DD`.
 */
import type { TPlanTrigger } from "@/modules/maintenance/contract/maintenance-plans";

type Unit = "DAY" | "WEEK" | "MONTH";
const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * `date` moved by `count` units. Months keep the day of the month, or the month's last day when it
 * is shorter (31 January + 1 month = 28 or 29 February), always counted from `date` itself so a
 * schedule never drifts.
 */
function addUnits(date: string, count: number, unit: Unit): string {
  if (unit === "DAY") return addDays(date, count);
  if (unit === "WEEK") return addDays(date, 7 * count);
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + count, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The first occurrence `start + k·every unit` (k ≥ 0) on or after `from`. */
function firstOccurrenceFrom(start: string, every: number, unit: Unit, from: string): string {
  if (from <= start) return start;
  // An estimate of k from the days, then stepped to the exact one (months differ in length).
  const span = unit === "DAY" ? every : unit === "WEEK" ? 7 * every : 28 * every;
  let k = Math.max(0, Math.floor(daysBetween(start, from) / span) - 1);
  if (unit === "MONTH") k = Math.max(0, Math.floor(daysBetween(start, from) / (31 * every)) - 1);
  while (addUnits(start, k * every, unit) < from) k += 1;
  return addUnits(start, k * every, unit);
}

/** The occurrences of a calendar schedule from `first` (itself an occurrence of it) up to `until`, inclusive, at most `limit`. */
export function occurrencesUntil(first: string, every: number, unit: Unit, until: string, limit: number): string[] {
  const dates: string[] = [];
  for (let k = 0; dates.length < limit; k += 1) {
    const date = addUnits(first, k * every, unit);
    if (date > until) break;
    dates.push(date);
  }
  return dates;
}

/** What a plan's next occurrence is counted from. */
export interface PlanState {
  trigger: TPlanTrigger;
  schedule: "FIXED" | "FLOATING";
  /** The day the plan was made: a FIXED calendar plan never opens work for occurrences before it. */
  createdDate: string;
  /** The latest occurrence opened (calendar: its date; meter: its due reading), if any. */
  lastOpened: { date: string | null; reading: number | null } | null;
  /** FLOATING: the last close-out of one of the plan's tasks (its doneDate, and the meter's reading then). */
  anchor: { date: string | null; reading: number | null } | null;
}

/**
 * A calendar plan's next occurrence that has not been opened yet. FIXED: the schedule's next date
 * after the last one opened (from the plan's creation day when none was). FLOATING: the last
 * close-out's doneDate + every (the start date before the first close-out); when that occurrence is
 * already open it stays the answer until the task is closed out.
 */
export function nextCalendarDate(state: PlanState): string {
  const trigger = state.trigger;
  if (trigger.kind !== "CALENDAR") throw new Error("not a calendar plan");
  if (state.schedule === "FLOATING") {
    return state.anchor?.date ? addUnits(state.anchor.date, trigger.every, trigger.unit) : trigger.startDate;
  }
  const from = state.lastOpened?.date ? addDays(state.lastOpened.date, 1) : state.createdDate;
  return firstOccurrenceFrom(trigger.startDate, trigger.every, trigger.unit, from);
}

/**
 * A meter plan's next due reading. FIXED: startReading + k·every, the first after the last one
 * opened. FLOATING: the reading at the last close-out + every (startReading + every before it).
 */
export function nextMeterReading(state: PlanState): number {
  const trigger = state.trigger;
  if (trigger.kind !== "METER") throw new Error("not a meter plan");
  if (state.schedule === "FLOATING") {
    return (state.anchor?.reading ?? trigger.startReading) + trigger.every;
  }
  const last = state.lastOpened?.reading;
  if (last === null || last === undefined) return trigger.startReading + trigger.every;
  const k = Math.floor((last - trigger.startReading) / trigger.every) + 1;
  return trigger.startReading + k * trigger.every;
}

/**
 * The day a meter reaches `dueReading` at `ratePerDay` from `reading` read on `today`: today when
 * it is already there, null when the meter does not move (or nothing is known of it).
 */
export function forecastDate(reading: number | null, ratePerDay: number | null, dueReading: number, today: string): string | null {
  if (reading === null) return null;
  if (reading >= dueReading) return today;
  if (ratePerDay === null || !(ratePerDay > 0)) return null;
  const days = Math.ceil((dueReading - reading) / ratePerDay);
  return days > 36_500 ? null : addDays(today, days);
}

/** The occurrence key of the unique (plan, occurrence) row: the date, or the due reading. */
export const occurrenceKey = (due: { date: string } | { reading: number }) => ("date" in due ? `D${due.date}` : `R${due.reading}`);
