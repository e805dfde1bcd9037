/**
 * The maintenance demo data, deterministic from SEED and relative to "today" so it always looks
 * current: per plant an asset hierarchy (lib/service/demo/maintenance-assets.ts), two years of jobs
 * done, maintenance plans (seed-plans.ts) with the planned jobs they schedule, a backlog of one-off
 * planned work, tasks in every status, spare parts with stock history, and
 * per customer its own lookup values. Generated first (demoMaintenanceRows), then written in one
 * transaction through the SQL interface (lib/platform/sql.ts).
 */
import { TASK_STATUSES, TASK_TRANSITIONS, type TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import type { SqlDb, SqlParams } from "@/lib/platform/sql";
import { DEMO_CUSTOMERS, DEMO_PLANTS, type DemoPlant } from "@/lib/service/demo/catalog";
import {
  CUSTOMER_VOCABULARY,
  type CustomerVocabulary,
  GENERAL_FAMILIES,
  PART_FAMILIES,
  PEOPLE,
  TASK_DESCRIPTIONS,
  WORK_ORDER_REMARKS,
  WORK_TITLES,
} from "@/lib/service/demo/maintenance-content";
import { generateAssets, type SeedAsset } from "@/lib/service/demo/maintenance-assets";
import { addDays, createRandom, type Random } from "@/lib/service/demo/seeded-random";
import { demoPlanRows } from "./seed-plans";

/** `demo_state` key: the last day (`YYYY-MM-DD`) of a plant's demo data that is written; the running demo rolls on from there. */
export const rolledThroughKey = (plantId: string) => `maintenance_rolled_through:${plantId}`;

interface MaintenanceSeedSizes {
  jobsDone: number;
  /** Calendar plans per plant (each plant also gets one meter plan). */
  plans: number;
  /** One-off planned jobs (no plan): repairs and modifications waiting for a slot. */
  oneOffJobs: number;
  tasks: number;
  parts: number;
}

/**
 * Per plant (issue 2: about 3,000 jobs done / 400 planned / 300 tasks / 200 parts; issue 34: the
 * recurring planned work is plans' — 60 plans schedule about 800 planned jobs over the next year).
 */
const DEFAULT_SEED_SIZES: MaintenanceSeedSizes = { jobsDone: 3000, plans: 60, oneOffJobs: 60, tasks: 300, parts: 200 };

export interface MaintenanceSeedOptions {
  seed: string;
  /** `YYYY-MM-DD` (UTC) the data is relative to. */
  today: string;
  sizes?: Partial<MaintenanceSeedSizes>;
}

interface SeedPart {
  id: string;
  name: string;
  family: string;
  unit: string;
  quantity: number;
  reorderPoint: number;
  /** What a planner orders when the part falls below its reorder point: enough to refill it. */
  reorderQuantity: number;
  isShort: boolean;
  remark: string | null;
  history: { quantity: number; isShort: boolean; remark: string | null; submittedAt: string }[];
}

function roundQuantity(value: number, unit: string): number {
  return ["KG", "L", "M"].includes(unit) ? Math.round(value * 10) / 10 : Math.round(value);
}

function generateParts(seed: string, plant: DemoPlant, assets: SeedAsset[], count: number, today: string): SeedPart[] {
  const random = createRandom(seed, plant.id, "parts");
  const families = [...new Set([...assets.flatMap((a) => a.partFamilies), ...GENERAL_FAMILIES])];
  const parts: SeedPart[] = [];
  // Material numbers are shared by a customer's plants (one catalogue), different between customers.
  const catalogue = createRandom(seed, plant.customerId, "material-numbers");
  let material = 100_000 + catalogue.int(0, 400_000);
  for (let i = 0; i < count; i++) {
    const family = families[i % families.length]!;
    const spec = PART_FAMILIES[family]!;
    const base = random.pick(spec.items);
    const variant = Math.floor(i / families.length);
    const name = variant === 0 ? base : `${base} (${["alt. supplier", "OEM", "kit", "stock B", "spare", "rebuilt", "large", "small"][variant % 8]})`;
    material += random.int(1, 40);
    const [low, high] = spec.stock;
    const reorderPoint = roundQuantity(low + (high - low) * 0.25, spec.unit);
    const short = random.chance(0.12);
    const quantity = roundQuantity(short ? random.next() * reorderPoint * 0.9 : reorderPoint + random.next() * (high - reorderPoint + 1), spec.unit);
    const isShort = quantity < reorderPoint;
    const history: SeedPart["history"] = [];
    const submissions = random.int(3, 12);
    let day = -730 + random.int(0, 60);
    for (let s = 0; s < submissions; s++) {
      const last = s === submissions - 1;
      const q = last ? quantity : roundQuantity(low + random.next() * (high - low), spec.unit);
      const remark = last && isShort ? random.pick(["Order placed, delivery expected in 3 weeks.", "Below reorder point; requisition raised.", "Used in breakdown repair."]) : random.chance(0.3) ? random.pick(["Cycle count", "Goods receipt", "Issued to work order", "Stock correction after audit"]) : null;
      history.push({
        quantity: q,
        isShort: q < reorderPoint,
        remark,
        submittedAt: `${addDays(today, day)}T${String(random.int(6, 17)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}:00.000Z`,
      });
      day += Math.max(1, Math.floor((730 - (day + 730)) / (submissions - s)) - random.int(0, 10));
      if (day > -1) day = -1;
    }
    const current = history[history.length - 1]!;
    const reorderQuantity = Math.max(1, roundQuantity(high - reorderPoint, spec.unit));
    parts.push({ id: `MAT-${material}`, name, family, unit: spec.unit, quantity, reorderPoint, reorderQuantity, isShort, remark: current.remark, history });
  }
  return parts;
}

export function hours(random: Random, min: number, max: number): string {
  return String(Math.round((min + random.next() * (max - min)) * 4) / 4);
}

export function titleFor(random: Random, kind: keyof typeof WORK_TITLES, asset: SeedAsset): string {
  return random.pick(WORK_TITLES[kind]).replace("{asset}", `${asset.name} ${asset.tagNumber}`);
}

/** The kinds of work tasks are raised for, and their priorities (index into the customer's four), as the seed and the running demo draw them. */
export const TASK_KIND_WEIGHTS = [["corrective", 50], ["inspection", 20], ["preventive", 15], ["modification", 10], ["lubrication", 5]] as const;
export const TASK_PRIORITY_WEIGHTS = [[0, 8], [1, 22], [2, 50], [3, 20]] as const;

/**
 * The drawn fields of a demo task raised on `createdDate` (the same for the seed and the running
 * demo): drawn in this order, so a seed and a day give the same tasks.
 */
export function drawTaskFields(
  random: Random,
  kind: (typeof TASK_KIND_WEIGHTS)[number][0],
  priorityIndex: (typeof TASK_PRIORITY_WEIGHTS)[number][0],
  asset: SeedAsset,
  vocabulary: CustomerVocabulary,
  createdDate: string,
) {
  const title = titleFor(random, kind, asset);
  const description = random.chance(0.8) ? random.pick(TASK_DESCRIPTIONS) : null;
  const role = random.chance(0.85) ? vocabulary.roles[asset.trade] : null;
  const dueDate = random.chance(0.9) ? addDays(createdDate, [1, 3, 7, 30][priorityIndex]! + random.int(0, 3)) : null;
  const incidentDate = kind === "corrective" ? addDays(createdDate, -random.int(0, 2)) : null;
  return { title, description, activityKind: vocabulary.activity[kind], role, priority: vocabulary.priorities[priorityIndex], dueDate, incidentDate };
}

const WORK_KINDS: readonly (readonly [keyof typeof WORK_TITLES, number])[] = [
  ["preventive", 35],
  ["corrective", 25],
  ["inspection", 18],
  ["lubrication", 12],
  ["calibration", 6],
  ["modification", 4],
];

/** The demo's people worked in the dashboard: their moves carry its client id, as real ones do. */
export const DEMO_TASK_CLIENT = "dashboard";

/** Someone of the plant's staff, as the history's `by` names a person. */
export function demoActor(random: Random, plantId: string): string {
  const [first, last] = random.pick(PEOPLE[plantId]!);
  return `${first} ${last}`;
}

/** Shortest path of allowed transitions from NEED_APPROVAL to a status (for believable history). */
function pathTo(target: TTaskStatus): TTaskStatus[] {
  const queue: TTaskStatus[][] = [["NEED_APPROVAL"]];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const last = path[path.length - 1]!;
    if (last === target) return path;
    for (const next of TASK_TRANSITIONS[last]) if (!path.includes(next)) queue.push([...path, next]);
  }
  throw new Error(`Status ${target} is unreachable.`);
}

/** The seed's statements; each row of the demo data is one of them with its parameters. */
const SEED_SQL = {
  customer: `INSERT INTO customers (id, name) VALUES (@id, @name)`,
  plant: `INSERT INTO plants (id, customer_id, name, time_zone) VALUES (@id, @customerId, @name, @timeZone)`,
  lookup: `INSERT INTO lookup_values (customer_id, kind, value, label, position) VALUES (@customerId, @kind, @value, @label, @position)`,
  asset: `INSERT INTO assets (id, plant_id, tag_number, serial_number, external_reference, name, asset_type, location,
    parent_tag_number, manufacturer, model, criticality) VALUES (@id, @plantId, @tagNumber, @serialNumber, @externalReference,
    @name, @assetType, @location, @parentTagNumber, @manufacturer, @model, @criticality)`,
  part: `INSERT INTO parts (plant_id, id, name, unit, quantity, reorder_point, reorder_quantity, is_short, remark, updated_at)
    VALUES (@plantId, @id, @name, @unit, @quantity, @reorderPoint, @reorderQuantity, @isShort, @remark, @updatedAt)`,
  stockLevel: `INSERT INTO stock_levels (plant_id, part_id, quantity, unit, remark, is_short, submitted_at)
    VALUES (@plantId, @partId, @quantity, @unit, @remark, @isShort, @submittedAt)`,
  job: `INSERT INTO jobs_done (id, plant_id, asset_id, job_title, done_date, due_date, activity_kind, department,
    total_time_used_in_hours, required_person_count, is_final, work_order_id, work_order_remark, user_firstname, user_lastname,
    user_username, failure_code, cause_code, remedy_code) VALUES (@id, @plantId, @assetId, @jobTitle, @doneDate, @dueDate,
    @activityKind, @department, @hours, @requiredPersonCount, @isFinal, @workOrderId, @workOrderRemark, @firstname, @lastname,
    @username, @failureCode, @causeCode, @remedyCode)`,
  partUsed: `INSERT INTO job_parts_used (job_id, line_no, plant_id, part_id, quantity) VALUES (@jobId, @lineNo, @plantId, @partId, @quantity)`,
  planned: `INSERT INTO planned_jobs (id, plant_id, asset_id, job_title, due_date, activity_kind, department,
    estimated_time_in_hours, required_person_count, recurrence_every, recurrence_unit, work_order_id, work_order_remark)
    VALUES (@id, @plantId, @assetId, @jobTitle, @dueDate, @activityKind, @department, @hours, @requiredPersonCount,
    @recurrenceEvery, @recurrenceUnit, @workOrderId, @workOrderRemark)`,
  task: `INSERT INTO tasks (id, plant_id, number, asset_id, task_title, task_description, activity_kind, assigned_to_role,
    priority, status, created_date, due_date, incident_date, updated_at) VALUES (@id, @plantId, @number, @assetId, @title,
    @description, @activityKind, @role, @priority, @status, @createdDate, @dueDate, @incidentDate, @updatedAt)`,
  transition: `INSERT INTO task_transitions (task_id, from_status, to_status, remark, at, by_name, client_id)
    VALUES (@taskId, @from, @to, NULL, @at, @by, '${DEMO_TASK_CLIENT}')`,
  // The running demo rolls each plant forward from the day after this one (demo-roll-forward.ts).
  rolledThrough: `INSERT INTO demo_state (key, value) VALUES (@key, @value) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
};

type SeedRow = readonly [sql: string, params: SqlParams];

/**
 * Every row of the demo data, in the order it is written (parents before children). Generation
 * only: the draws happen here, in a fixed order, so the rows depend on nothing but the options.
 */
function demoMaintenanceRows(options: MaintenanceSeedOptions): SeedRow[] {
  const sizes = { ...DEFAULT_SEED_SIZES, ...options.sizes };
  const { seed, today } = options;
  const rows: SeedRow[] = [];
  const write = (sql: string, params: SqlParams) => rows.push([sql, params]);
  for (const customer of DEMO_CUSTOMERS) {
    write(SEED_SQL.customer, { id: customer.id, name: customer.name });
    const vocabulary = CUSTOMER_VOCABULARY[customer.id]!;
    vocabulary.lookups.forEach((lookup, position) =>
      write(SEED_SQL.lookup, { customerId: customer.id, kind: lookup.kind, value: lookup.value, label: lookup.label, position }),
    );
  }
  for (const plant of DEMO_PLANTS) {
    write(SEED_SQL.plant, { id: plant.id, customerId: plant.customerId, name: plant.name, timeZone: plant.timeZone });
    write(SEED_SQL.rolledThrough, { key: rolledThroughKey(plant.id), value: today });
    const vocabulary = CUSTOMER_VOCABULARY[plant.customerId]!;
    const people = PEOPLE[plant.id]!;
    const assets = generateAssets(seed, plant);
    for (const asset of assets) write(SEED_SQL.asset, { ...asset, plantId: plant.id });
    const workable = assets.filter((a) => a.level === "MACHINE" || a.level === "COMPONENT");

    const parts = generateParts(seed, plant, assets, sizes.parts, today);
    for (const part of parts) {
      write(SEED_SQL.part, {
        plantId: plant.id,
        id: part.id,
        name: part.name,
        unit: part.unit,
        quantity: part.quantity,
        reorderPoint: part.reorderPoint,
        reorderQuantity: part.reorderQuantity,
        isShort: part.isShort ? 1 : 0,
        remark: part.remark,
        updatedAt: part.history.at(-1)!.submittedAt,
      });
      for (const h of part.history) {
        write(SEED_SQL.stockLevel, { plantId: plant.id, partId: part.id, quantity: h.quantity, unit: part.unit, remark: h.remark, isShort: h.isShort ? 1 : 0, submittedAt: h.submittedAt });
      }
    }
    const partsByFamily = new Map<string, SeedPart[]>();
    for (const part of parts) partsByFamily.set(part.family, [...(partsByFamily.get(part.family) ?? []), part]);

    const departmentOf = (asset: SeedAsset) => vocabulary.departments[asset.trade];
    const planTitleRandom = createRandom(seed, plant.id, "plan-titles");
    const workOrderBase = createRandom(seed, plant.id, "work-orders").int(4_000_000, 4_500_000);

    // Jobs done: spread over the last 730 days, numbered in date order.
    const jobRandom = createRandom(seed, plant.id, "jobs-done");
    // A stream of its own: a corrective job's failure, cause and remedy codes (the reliability
    // record counts them, docs/api.md "Reliability") leave every other seeded value as it was.
    const codeRandom = createRandom(seed, plant.id, "job-codes");
    const codesOf = (kind: "failureCode" | "causeCode" | "remedyCode") => vocabulary.lookups.filter((lookup) => lookup.kind === kind).map((lookup) => lookup.value);
    const codeLists = { failure: codesOf("failureCode"), cause: codesOf("causeCode"), remedy: codesOf("remedyCode") };
    // A few failures dominate, as on any plant (the Pareto's point): weights fall with the list's order.
    const drawCode = (codes: string[]) => (codes.length === 0 ? null : codeRandom.weighted(codes.map((code, index) => [code, codes.length - index] as const)));
    const jobDays = Array.from({ length: sizes.jobsDone }, () => -jobRandom.int(1, 730)).sort((a, b) => a - b);
    jobDays.forEach((day, i) => {
      const asset = jobRandom.pick(workable);
      const kind = jobRandom.weighted(WORK_KINDS);
      const doneDate = addDays(today, day);
      const dueDate = addDays(doneDate, kind === "corrective" ? -jobRandom.int(0, 3) : jobRandom.int(-10, 7));
      const [firstname, lastname] = jobRandom.pick(people);
      const username = `${firstname[0]}${lastname}`.toLowerCase().normalize("NFD").replace(/[^a-z]/g, "");
      const id = `${plant.id}-J${String(i + 1).padStart(6, "0")}`;
      // Members in the order of their draws.
      write(SEED_SQL.job, {
        id,
        plantId: plant.id,
        assetId: asset.id,
        jobTitle: titleFor(jobRandom, kind, asset),
        doneDate,
        dueDate,
        activityKind: vocabulary.activity[kind],
        department: kind === "inspection" && jobRandom.chance(0.3) ? vocabulary.departments.reliability : departmentOf(asset),
        hours: hours(jobRandom, kind === "corrective" ? 1 : 0.25, kind === "preventive" || kind === "corrective" ? 12 : 3),
        requiredPersonCount: jobRandom.weighted([[1, 60], [2, 30], [3, 8], [4, 2]] as const),
        isFinal: jobRandom.chance(0.96) ? 1 : 0,
        workOrderId: `WO-${workOrderBase + i * 3 + jobRandom.int(0, 2)}`,
        workOrderRemark: jobRandom.chance(0.7) ? jobRandom.pick(WORK_ORDER_REMARKS) : null,
        firstname,
        lastname,
        username,
        ...(kind === "corrective" && codeRandom.chance(0.85)
          ? { failureCode: drawCode(codeLists.failure), causeCode: drawCode(codeLists.cause), remedyCode: drawCode(codeLists.remedy) }
          : { failureCode: null, causeCode: null, remedyCode: null }),
      });
      if (kind === "inspection" || kind === "calibration" || jobRandom.chance(0.25)) return;
      const candidates = asset.partFamilies.flatMap((family) => partsByFamily.get(family) ?? []);
      const lines = candidates.length === 0 ? 0 : jobRandom.int(1, 3);
      for (let line = 1; line <= lines; line++) {
        const part = jobRandom.pick(candidates);
        const quantity = ["KG", "L", "M", "ML", "G", "MM"].includes(part.unit) ? roundQuantity(0.5 + jobRandom.next() * 10, part.unit === "KG" || part.unit === "L" || part.unit === "M" ? "KG" : "PCS") : jobRandom.int(1, 4);
        write(SEED_SQL.partUsed, { jobId: id, lineNo: line, plantId: plant.id, partId: part.id, quantity });
      }
    });

    // Maintenance plans, and the planned jobs they schedule (seed-plans.ts).
    for (const [sql, params] of demoPlanRows({
      plantId: plant.id,
      today,
      assets,
      vocabulary,
      random: createRandom(seed, plant.id, "plans"),
      count: sizes.plans,
      titleOf: (kind, asset) => titleFor(planTitleRandom, kind, asset as SeedAsset),
    })) {
      write(sql, params);
    }

    // One-off planned work (no plan): repairs found on rounds and small modifications over the next
    // two months, plus a backlog of about 7 % that fell due in the last two weeks and is not done yet
    // (every real plant has one; the overview and timeline show it as overdue).
    const plannedRandom = createRandom(seed, plant.id, "jobs-planned");
    const plannedDays = Array.from({ length: sizes.oneOffJobs }, () => plannedRandom.int(-14, 60)).sort((a, b) => a - b);
    plannedDays.forEach((day, i) => {
      const asset = plannedRandom.pick(workable);
      const kind = plannedRandom.weighted([["corrective", 50], ["modification", 25], ["inspection", 25]] as const);
      const released = day < 21 || plannedRandom.chance(0.2);
      write(SEED_SQL.planned, {
        id: `${plant.id}-PJ${String(i + 1).padStart(5, "0")}`,
        plantId: plant.id,
        assetId: asset.id,
        jobTitle: titleFor(plannedRandom, kind, asset),
        dueDate: addDays(today, day),
        activityKind: vocabulary.activity[kind],
        department: departmentOf(asset),
        hours: hours(plannedRandom, 0.5, kind === "modification" ? 16 : 6),
        requiredPersonCount: plannedRandom.weighted([[1, 55], [2, 35], [3, 10]] as const),
        recurrenceEvery: null,
        recurrenceUnit: null,
        workOrderId: released ? `WO-${workOrderBase + 3 * sizes.jobsDone + i}` : null,
        workOrderRemark:
          released && plannedRandom.chance(0.4)
            ? plannedRandom.pick(["Spares reserved.", "Needs scaffolding.", "Coordinate with production for a stop.", "Permit to work required."])
            : null,
      });
    });

    // Tasks: raised over the last 120 days, in every status (older ones further along).
    const taskRandom = createRandom(seed, plant.id, "tasks");
    // A stream of its own: naming who moved each task leaves every other seeded value as it was.
    const actorRandom = createRandom(seed, plant.id, "task-actors");
    const taskDays = Array.from({ length: sizes.tasks }, () => -taskRandom.int(0, 120)).sort((a, b) => a - b);
    taskDays.forEach((day, i) => {
      const asset = taskRandom.pick(workable);
      const kind = taskRandom.weighted(TASK_KIND_WEIGHTS);
      const age = -day;
      const status: TTaskStatus =
        age < 7
          ? taskRandom.weighted([["NEED_APPROVAL", 60], ["PENDING", 30], ["NEED_CONFIRMATION", 10]] as const)
          : taskRandom.weighted(TASK_STATUSES.map((s) => [s, s === "CLOSED" ? 30 : s === "PENDING" ? 20 : 10] as const));
      const createdDate = addDays(today, day);
      const priorityIndex = taskRandom.weighted(TASK_PRIORITY_WEIGHTS);
      const id = `${plant.id}-T${String(i + 1).padStart(6, "0")}`;
      const createdAt = `${createdDate}T${String(taskRandom.int(5, 20)).padStart(2, "0")}:${String(taskRandom.int(0, 59)).padStart(2, "0")}:00.000Z`;
      const task = drawTaskFields(taskRandom, kind, priorityIndex, asset, vocabulary, createdDate);
      const { title, description, activityKind, role, priority, dueDate, incidentDate } = task;
      write(SEED_SQL.task, { id, plantId: plant.id, number: i + 1, assetId: asset.id, title, description, activityKind, role, priority, status, createdDate, dueDate, incidentDate, updatedAt: createdAt });
      const path = pathTo(status);
      path.forEach((to, step) => {
        const at = new Date(Date.parse(createdAt) + step * Math.max(1, age) * 3_600_000 * 4).toISOString();
        write(SEED_SQL.transition, { taskId: id, from: step === 0 ? null : path[step - 1], to, at: at < createdAt ? createdAt : at, by: demoActor(actorRandom, plant.id) });
      });
    });
  }
  return rows;
}

/** Writes the demo data in one transaction. */
export async function seedMaintenance(db: SqlDb, options: MaintenanceSeedOptions): Promise<void> {
  const rows = demoMaintenanceRows(options);
  await db.transaction(async (tx) => {
    for (const [sql, params] of rows) await tx.run(sql, params);
  });
}

/**
 * Seeds the demo data unless the database already has plants (first start); true when this call
 * seeded. The check and the writes are one transaction (SQLite: BEGIN IMMEDIATE), so of two
 * processes starting on one new file only one seeds.
 */
export async function seedMaintenanceIfEmpty(db: SqlDb, options: MaintenanceSeedOptions): Promise<boolean> {
  const rows = demoMaintenanceRows(options);
  return db.transaction(async (tx) => {
    if ((await tx.get<{ plants: number }>("SELECT count(*) AS plants FROM plants"))!.plants > 0) return false;
    for (const [sql, params] of rows) await tx.run(sql, params);
    return true;
  });
}
