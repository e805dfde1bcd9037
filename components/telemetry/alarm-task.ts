/**
 * From an alarm to a maintenance task: rows of `Events` (an alarm per row) get a "Create task" link
 * that opens the task board's create form with the device's asset (its topology reference), the
 * alarm's start as the incident date and its message as the description. Pure.
 */
import { plantPath } from "@/components/shell/nav-items";
import type { DeviceInfo } from "./catalogue";
import type { RowAction } from "./result-table";
import type { QueryResult } from "./series";

interface AlarmFields {
  plantId: string;
  deviceId: string;
  asset: string;
  name: string;
  severity: string;
  message: string;
  start: string;
}

/** Where the create-task form opens, already filled in. */
export function taskFromAlarmHref(alarm: AlarmFields): string {
  const params = new URLSearchParams({ new: "1" });
  if (alarm.asset) params.set("asset", alarm.asset);
  // Task dates are calendar days in UTC (docs/api.md §3).
  if (/^\d{4}-\d{2}-\d{2}/.test(alarm.start)) params.set("incident", alarm.start.slice(0, 10));
  params.set("title", `Alarm ${alarm.name || "raised"}${alarm.asset ? ` on ${alarm.asset}` : ""}`.slice(0, 200));
  const description = [alarm.message, `${alarm.severity ? `${alarm.severity} alarm` : "Alarm"} ${alarm.name} of device ${alarm.deviceId} since ${alarm.start}.`].filter(Boolean).join("\n\n");
  params.set("desc", description.slice(0, 4000));
  return `${plantPath(alarm.plantId, "tasks")}?${params}`;
}

/**
 * A row action for results that hold alarms (a `DeviceId`, a `StartTime`, and `Message`, `Name` or
 * `Severity`), or undefined for other results. The plant is the row's `PlantId`, else the device's.
 */
export function alarmTaskLink(result: QueryResult, devices: ReadonlyMap<string, DeviceInfo> | undefined, fallbackPlant: string): ((row: unknown[]) => RowAction | null) | undefined {
  const index = (name: string) => result.columns.findIndex((column) => column.name === name);
  const device = index("DeviceId");
  const start = index("StartTime");
  const message = index("Message");
  const name = index("Name");
  const severity = index("Severity");
  const plant = index("PlantId");
  if (device < 0 || start < 0 || (message < 0 && name < 0 && severity < 0)) return undefined;
  const text = (row: unknown[], at: number) => (at >= 0 && row[at] !== null && row[at] !== undefined ? String(row[at]) : "");
  return (row) => {
    const deviceId = text(row, device);
    if (!deviceId) return null;
    const known = devices?.get(deviceId);
    const alarm = {
      plantId: text(row, plant) || known?.plantId || fallbackPlant,
      deviceId,
      asset: known?.asset ?? "",
      name: text(row, name),
      severity: text(row, severity),
      message: text(row, message),
      start: text(row, start),
    };
    return { href: taskFromAlarmHref(alarm), label: "Create task", name: `Create a task for alarm ${alarm.name || ""} of ${deviceId} at ${alarm.start}` };
  };
}
