/**
 * The plan editor's form values and their translation to the service's body (ZMaintenancePlanInput):
 * numbers are typed in the reader's language ("1,5" in Dutch) and read with parseLocaleNumber; an
 * unreadable one is sent as NaN so the server's one schema refuses it at its field. Pure.
 */
import { parseLocaleNumber } from "@/lib/client/format";
import type { TMaintenancePlan, TMaintenancePlanInput } from "@/modules/maintenance/contract/maintenance-plans";

export interface ChecklistRow {
  key: number;
  text: string;
  kind: "CHECK" | "READING";
  unit: string;
  min: string;
  max: string;
  required: boolean;
}

export interface PlanFormValues {
  title: string;
  description: string;
  assetTagNumber: string;
  activityKind: string;
  assignedToRole: string;
  priority: string;
  estimatedTimeInHours: string;
  requiredPersonCount: string;
  triggerKind: "CALENDAR" | "METER";
  every: string;
  unit: "DAY" | "WEEK" | "MONTH";
  startDate: string;
  query: string;
  meterEvery: string;
  meterUnit: string;
  startReading: string;
  leadTimeDays: string;
  schedule: "FIXED" | "FLOATING";
  checklist: ChecklistRow[];
  enabled: boolean;
}

const DEFAULT_METER_QUERY = `States
| where Name == "RunningState" and Value > 0
| summarize RunningHours = todouble(count()) / 60.0`;

let nextKey = 1;
export const newChecklistRow = (): ChecklistRow => ({ key: nextKey++, text: "", kind: "CHECK", unit: "", min: "", max: "", required: true });

export function initialPlanValues(plan: TMaintenancePlan | null, today: string, locale: string): PlanFormValues {
  const number = (value: number | null | undefined) => (value === null || value === undefined ? "" : new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 6 }).format(value));
  const trigger = plan?.trigger;
  return {
    title: plan?.title ?? "",
    description: plan?.description ?? "",
    assetTagNumber: plan?.assetTagNumber ?? "",
    activityKind: plan?.activityKind ?? "",
    assignedToRole: plan?.assignedToRole ?? "",
    priority: plan?.priority ?? "",
    estimatedTimeInHours: number(plan?.estimatedTimeInHours ?? 1),
    requiredPersonCount: String(plan?.requiredPersonCount ?? 1),
    triggerKind: trigger?.kind ?? "CALENDAR",
    every: trigger?.kind === "CALENDAR" ? String(trigger.every) : "1",
    unit: trigger?.kind === "CALENDAR" ? trigger.unit : "MONTH",
    startDate: trigger?.kind === "CALENDAR" ? trigger.startDate : today,
    query: trigger?.kind === "METER" ? trigger.query : DEFAULT_METER_QUERY,
    meterEvery: trigger?.kind === "METER" ? number(trigger.every) : "250",
    meterUnit: trigger?.kind === "METER" ? trigger.unit : "h",
    startReading: trigger?.kind === "METER" ? number(trigger.startReading) : "0",
    leadTimeDays: String(plan?.leadTimeDays ?? 7),
    schedule: plan?.schedule ?? "FIXED",
    checklist: (plan?.checklist ?? []).map((item) => ({ key: nextKey++, text: item.text, kind: item.kind, unit: item.unit ?? "", min: number(item.min), max: number(item.max), required: item.required })),
    enabled: plan?.enabled ?? true,
  };
}

/** A typed number in the reader's language; empty → null; unreadable → NaN (the server names the field). */
export function readNumber(text: string, locale: string): number | null {
  if (!text.trim()) return null;
  return parseLocaleNumber(text.trim(), locale) ?? Number.NaN;
}

const required = (text: string, locale: string) => readNumber(text, locale) ?? Number.NaN;

export function toPlanInput(values: PlanFormValues, locale: string): TMaintenancePlanInput {
  return {
    title: values.title,
    description: values.description.trim() || null,
    assetTagNumber: values.assetTagNumber.trim(),
    activityKind: values.activityKind,
    assignedToRole: values.assignedToRole,
    priority: values.priority,
    estimatedTimeInHours: required(values.estimatedTimeInHours, locale),
    requiredPersonCount: required(values.requiredPersonCount, locale),
    trigger:
      values.triggerKind === "CALENDAR"
        ? { kind: "CALENDAR", every: required(values.every, locale), unit: values.unit, startDate: values.startDate }
        : { kind: "METER", query: values.query, every: required(values.meterEvery, locale), unit: values.meterUnit, startReading: required(values.startReading, locale) },
    leadTimeDays: required(values.leadTimeDays, locale),
    schedule: values.schedule,
    checklist: values.checklist.map((row) =>
      row.kind === "CHECK"
        ? { text: row.text, kind: "CHECK" as const, required: row.required }
        : { text: row.text, kind: "READING" as const, unit: row.unit.trim() || null, min: readNumber(row.min, locale), max: readNumber(row.max, locale), required: row.required },
    ),
    enabled: values.enabled,
  };
}

/**
 * A refusal's `field` (`trigger.every`, `checklist.2.text`) as the form's key: trigger fields map to
 * the form's own names, a checklist item's to `checklist.<index>`.
 */
export function formFieldOf(field: string, triggerKind: PlanFormValues["triggerKind"]): string {
  const item = /^checklist\.(\d+)/.exec(field);
  if (item) return `checklist.${item[1]}`;
  if (field.startsWith("trigger.")) {
    const name = field.slice("trigger.".length);
    if (triggerKind === "METER" && name === "every") return "meterEvery";
    if (triggerKind === "METER" && name === "unit") return "meterUnit";
    return name;
  }
  return field;
}

/** The meter's next due reading for a preview: the first startReading + n × every above the reading now. */
export function nextDueReading(reading: number, startReading: number, every: number): number {
  if (!(every > 0)) return Number.NaN;
  const steps = Math.max(1, Math.floor((reading - startReading) / every) + 1);
  return startReading + steps * every;
}

/** Whole days until `target` at `ratePerDay`, from `reading`; null when the meter does not move. */
export function daysUntil(reading: number, target: number, ratePerDay: number | null): number | null {
  if (ratePerDay === null || !(ratePerDay > 0)) return null;
  return Math.max(0, Math.ceil((target - reading) / ratePerDay));
}
