/**
 * The demo's maintenance plans (docs/api.md, "Maintenance plans"): the seed's recurring planned work
 * is written as plans, and their planned jobs are the occurrences the plans' own evaluation writes
 * (evaluate.ts `plannedOccurrences`, `planId` set), so `GET …/jobs-planned` on a fresh demo already
 * lists what the plans schedule, and the first tick only opens what falls within a lead time.
 *
 * Per plant: calendar plans on machines and components (preventive work, inspections, lubrication,
 * calibration, with the recurrences the seed drew for its planned jobs before plans existed), FIXED
 * since the demo's roll-forward moves tasks without a close-out; and one meter plan on a pump or
 * compressor whose reading is its running hours, read with KQL from the plant's demo telemetry.
 */
import type { TChecklistItem } from "@/modules/maintenance/contract/maintenance-plans";
import type { SqlParams } from "@/lib/platform/sql";
import { addDays, type Random } from "@/lib/service/demo/seeded-random";
import type { CustomerVocabulary } from "@/lib/service/demo/maintenance-content";
import { plannedOccurrences } from "./plan-evaluate";
import { planInsert, plannedJobInsert, type StoredPlan } from "@/modules/maintenance/store/plans";

/** What a plan needs of an asset (seed.ts SeedAsset). */
interface PlanAsset {
  id: string;
  tagNumber: string;
  name: string;
  level: "AREA" | "LINE" | "MACHINE" | "COMPONENT";
  assetType: string;
  trade: "mechanical" | "electrical" | "instrument";
}

type PlanKind = "preventive" | "inspection" | "lubrication" | "calibration";
type Unit = "DAY" | "WEEK" | "MONTH";

/**
 * The recurrences the seed drew for its recurring planned jobs, by kind — except a daily
 * inspection: as a plan it would open a task a day per asset, where a plant walks a daily route.
 */
const RECURRENCES: Record<PlanKind, readonly (readonly [number, Unit])[]> = {
  inspection: [[1, "WEEK"], [2, "WEEK"], [1, "MONTH"]],
  lubrication: [[1, "MONTH"], [3, "MONTH"], [2, "WEEK"]],
  preventive: [[3, "MONTH"], [6, "MONTH"], [12, "MONTH"], [1, "MONTH"]],
  calibration: [[3, "MONTH"], [6, "MONTH"], [12, "MONTH"], [1, "MONTH"]],
};

const CHECKLISTS: Record<PlanKind, Omit<TChecklistItem, "itemId">[]> = {
  preventive: [
    { text: "Lock-out / tag-out applied", kind: "CHECK", unit: null, min: null, max: null, required: true },
    { text: "Wear parts inspected and replaced as needed", kind: "CHECK", unit: null, min: null, max: null, required: true },
    { text: "Work area cleaned", kind: "CHECK", unit: null, min: null, max: null, required: false },
  ],
  inspection: [
    { text: "Guards and covers in place", kind: "CHECK", unit: null, min: null, max: null, required: true },
    { text: "Vibration (velocity, RMS)", kind: "READING", unit: "mm/s", min: 0, max: 7.1, required: true },
  ],
  lubrication: [
    { text: "Grease points lubricated", kind: "CHECK", unit: null, min: null, max: null, required: true },
    { text: "Bearing temperature after run-in", kind: "READING", unit: "degC", min: 10, max: 80, required: false },
  ],
  calibration: [{ text: "As-found deviation", kind: "READING", unit: "%", min: -0.5, max: 0.5, required: true }],
};

/** Days ahead of an occurrence its task opens: longer for rarer (bigger) work. */
function leadTimeOf(every: number, unit: Unit): number {
  const days = unit === "DAY" ? every : unit === "WEEK" ? 7 * every : 30 * every;
  return days <= 7 ? 2 : days <= 14 ? 3 : days <= 31 ? 7 : 14;
}

/**
 * The meter's KQL: a machine's running hours since commissioning, estimated from its RunningState
 * data point (1 while it runs, one reading a minute) as the hours since then × the share of the
 * window it ran. The device id follows the demo telemetry's numbering of the plant's machines
 * (docs/telemetry-ingest.md, "The demo plant runs": one device per machine, in asset order).
 */
function runningHoursQuery(deviceId: string, commissioned: string): string {
  return [
    "States",
    `| where DeviceId == "${deviceId}" and Name == "RunningState"`,
    `| summarize RunningHours = toreal(datetime_diff("minute", max(Timestamp), datetime(${commissioned}))) / 60.0 * avg(Value)`,
  ].join("\n");
}

interface DemoPlansInput {
  plantId: string;
  today: string;
  /** Every asset of the plant, in the seed's order. */
  assets: readonly PlanAsset[];
  vocabulary: CustomerVocabulary;
  random: Random;
  count: number;
  titleOf(kind: PlanKind, asset: PlanAsset): string;
}

/** The plans' rows and their planned jobs' rows, in the order they are written. */
export function demoPlanRows(input: DemoPlansInput): (readonly [string, SqlParams])[] {
  const { plantId, today, vocabulary, random } = input;
  const rows: (readonly [string, SqlParams])[] = [];
  const workable = input.assets.filter((asset) => asset.level === "MACHINE" || asset.level === "COMPONENT");
  const machines = input.assets.filter((asset) => asset.level === "MACHINE");
  const createdAt = `${today}T06:00:00.000Z`;
  // Written as the plans store writes a new plan and its planned jobs (plans/store.ts).
  const write = (plan: StoredPlan) => {
    rows.push(planInsert(plantId, plan.id, plan, plan.assetId, today, createdAt));
    // A meter plan has no forecast before its first reading, so no planned job yet.
    for (const occurrence of plannedOccurrences(plan, today)) rows.push(plannedJobInsert(plan, occurrence));
  };
  const base = (id: string, asset: PlanAsset, kind: PlanKind | "meter") => ({
    id,
    plantId,
    assetId: asset.id,
    assetTagNumber: asset.tagNumber,
    description: null,
    assignedToRole: vocabulary.roles[asset.trade],
    schedule: "FIXED" as const,
    enabled: true,
    lastReading: null,
    lastReadingAt: null,
    ratePerDay: null,
    anchorDate: null,
    anchorReading: null,
    lastOpenedDate: null,
    lastOpenedReading: null,
    createdDate: today,
    createdAt,
    updatedAt: createdAt,
    activityKind: vocabulary.activity[kind === "meter" ? "preventive" : kind],
  });
  const numbered = (items: Omit<TChecklistItem, "itemId">[]): TChecklistItem[] => items.map((item, index) => ({ ...item, itemId: String(index + 1) }));

  for (let i = 0; i < input.count && workable.length > 0; i++) {
    const asset = random.pick(workable);
    const kind = random.weighted([["preventive", 40], ["inspection", 25], ["lubrication", 20], ["calibration", 8]] as const);
    const [every, unit] = random.pick(RECURRENCES[kind]);
    write({
      ...base(`${plantId}-PL${String(i + 1).padStart(3, "0")}`, asset, kind),
      title: input.titleOf(kind, asset),
      priority: vocabulary.priorities[random.chance(0.2) ? 1 : 2],
      estimatedTimeInHours: Math.round((0.5 + random.next() * (kind === "preventive" ? 7.5 : 2.5)) * 4) / 4,
      requiredPersonCount: random.weighted([[1, 55], [2, 35], [3, 10]] as const),
      trigger: { kind: "CALENDAR", every, unit, startDate: addDays(today, random.int(-365, 60)) },
      leadTimeDays: leadTimeOf(every, unit),
      checklist: numbered(CHECKLISTS[kind]),
    });
  }

  // One meter plan: the first pump or compressor (else the first machine) by its running hours.
  const metered = machines.find((machine) => machine.assetType === "PUMP" || machine.assetType === "COMPRESSOR") ?? machines[0];
  if (metered) {
    const deviceId = `${plantId}-DEV-${String(machines.indexOf(metered) + 1).padStart(3, "0")}`;
    const commissioned = addDays("2019-01-01", random.int(0, 1500));
    const every = 500;
    // Hours since commissioning bound the meter from above: the next due reading lies ahead.
    const hoursSince = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${commissioned}T00:00:00Z`)) / 3_600_000;
    write({
      ...base(`${plantId}-PLM01`, metered, "meter"),
      title: `Service ${metered.name} ${metered.tagNumber} every ${every} running hours`,
      priority: vocabulary.priorities[2],
      estimatedTimeInHours: 3,
      requiredPersonCount: 1,
      trigger: { kind: "METER", query: runningHoursQuery(deviceId, commissioned), every, unit: "h", startReading: Math.floor(hoursSince / every) * every },
      leadTimeDays: 0,
      checklist: numbered([...CHECKLISTS.lubrication, { text: "Running hours on the machine's counter", kind: "READING", unit: "h", min: null, max: null, required: false }]),
    });
  }
  return rows;
}
