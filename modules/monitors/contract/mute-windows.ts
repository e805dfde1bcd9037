/**
 * A monitor's severity and mute windows as plain values and one pure rule, without zod: the schemas
 * in monitors.ts are built from them, the evaluator and the monitor editor both ask `mutedAt`
 * (docs/api.md, "Monitors"). A window is one-off (`from`–`to`, instants) or weekly (days of the
 * week, a wall-clock start and a length, read in the window's time zone — a planned shutdown
 * "every Sunday 06:00 for 8 hours, Europe/Amsterdam"). A weekly window is counted in wall-clock
 * minutes, so on a daylight-saving night it is an hour longer or shorter in real time.
 */
export const MONITOR_SEVERITIES = ["critical", "warning", "info"] as const;
export type TMonitorSeverity = (typeof MONITOR_SEVERITIES)[number];
export const SEVERITY_LABEL: Record<TMonitorSeverity, string> = { critical: "Critical", warning: "Warning", info: "Info" };

export const WEEK_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type TWeekDay = (typeof WEEK_DAYS)[number];

export const MUTE_LIMITS = { maxWindows: 20, maxWeeklyMinutes: 7 * 1440, maxReason: 200 } as const;

export type MuteWindow =
  | { kind: "once"; from: string; to: string; reason?: string | null }
  | { kind: "weekly"; days: TWeekDay[]; start: string; minutes: number; timeZone: string; reason?: string | null };

const WEEK_MINUTES = 7 * 1440;
const SHORT_DAY: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

/** Minutes since Monday 00:00 of the wall clock in `timeZone` at `at`. */
function weekMinute(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return SHORT_DAY[get("weekday")]! * 1440 + Number(get("hour")) * 60 + Number(get("minute"));
}

/** "HH:MM" → minutes of the day, or null. */
export function clockMinutes(text: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** Whether `window` covers the instant `at` (ms since the epoch). */
export function windowCovers(window: MuteWindow, at: number): boolean {
  if (window.kind === "once") return Date.parse(window.from) <= at && at < Date.parse(window.to);
  const now = weekMinute(at, window.timeZone);
  const start = clockMinutes(window.start) ?? 0;
  return window.days.some((day) => {
    const begins = WEEK_DAYS.indexOf(day) * 1440 + start;
    return (((now - begins) % WEEK_MINUTES) + WEEK_MINUTES) % WEEK_MINUTES < window.minutes;
  });
}

/** The first window that covers `at`, or null: a muted monitor records firings but opens and sends nothing. */
export function mutedAt(windows: readonly MuteWindow[], at: number): MuteWindow | null {
  return windows.find((window) => windowCovers(window, at)) ?? null;
}
