/**
 * The maintenance demo keeps running: day by day after the seed, one-off planned jobs get done
 * (most around their due date, some late, a few early), work orders are released three weeks
 * ahead, new corrective work gets planned, tasks arrive and move through their statuses. The
 * maintenance plans' planned jobs are not touched here: the plans' tick opens their tasks when they
 * come due (plans/scheduler.ts), and those tasks move on with the others. So the overview shows a running plant's mix of due, overdue and done
 * work on any day, not the seed day's picture growing stale (docs/telemetry-ingest.md, "The demo
 * plant runs").
 *
 * Deterministic from SEED and the day (a day's draws come from their own random stream); each
 * plant's day is written in one transaction together with the `demo_state` marker, so a day is
 * rolled exactly once however often the server restarts. The SQL is the same on SQLite and
 * PostgreSQL; on PostgreSQL, where several instances roll the same plants, each day's transaction
 * first takes an advisory lock and reads the marker again, so one instance rolls a day and the
 * others find it done (docs/architecture.md, "Several instances").
 */
import { TASK_TRANSITIONS, type TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import type { SqlDb, SqlExecutor, SqlParams } from "@/lib/platform/sql";
import { addDays, createRandom, type Random } from "@/lib/service/demo/seeded-random";
import type { DemoPlant } from "@/lib/service/demo/catalog";
import { CUSTOMER_VOCABULARY, PEOPLE, WORK_ORDER_REMARKS } from "@/lib/service/demo/maintenance-content";
import { generateAssets, type SeedAsset } from "@/lib/service/demo/maintenance-assets";
import { DEMO_TASK_CLIENT, demoActor, drawTaskFields, hours, rolledThroughKey, TASK_KIND_WEIGHTS, TASK_PRIORITY_WEIGHTS, titleFor } from "./seed";

/** A server that was down longer than this catches up this many days (older backlog is done on the first). */
const MAX_ROLL_DAYS = 90;

interface RollForwardOptions {
  seed: string;
  /** `YYYY-MM-DD` (UTC): the last day to roll (inclusive). */
  today: string;
  /** The current instant, to keep today's timestamps in the past. */
  now?: Date;
}

interface RollForwardResult {
  days: number;
  jobsDone: number;
  plannedAdded: number;
  tasksCreated: number;
  taskMoves: number;
}

const markerKey = rolledThroughKey;

/**
 * Days after (or before, negative) its due date that a planned job occurrence gets done: a pure
 * function of the job and the due date, so the outcome does not depend on when the roll runs.
 */
function completionOffsetDays(seed: string, jobId: string, dueDate: string): number {
  const random = createRandom(seed, jobId, dueDate, "done");
  const bucket = random.weighted([
    [[-3, -1], 12],
    [[0, 0], 30],
    [[1, 3], 33],
    [[4, 10], 17],
    [[11, 25], 8],
  ] as const);
  return random.int(bucket[0], bucket[1]);
}

/** Next occurrence of a recurring job after `date`. */
function nextOccurrence(date: string, every: number, unit: "DAY" | "WEEK" | "MONTH"): string {
  if (unit === "DAY") return addDays(date, every);
  if (unit === "WEEK") return addDays(date, 7 * every);
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  // Clamp to the month's last day (31 Jan + 1 month = 28/29 Feb).
  const lastDay = new Date(Date.UTC(y, m - 1 + every + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + every, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/** Likely next status of an open task (progress is more likely than a detour). */
const NEXT_STATUS_WEIGHTS: Record<TTaskStatus, readonly (readonly [TTaskStatus, number])[]> = {
  NEED_APPROVAL: [["PENDING", 85], ["CLOSED", 15]],
  PENDING: [["NEED_CONFIRMATION", 80], ["POSTPONEMENT_NEED_APPROVAL", 20]],
  POSTPONEMENT_NEED_APPROVAL: [["POSTPONED", 60], ["PENDING", 40]],
  POSTPONED: [["PENDING", 100]],
  NEED_CONFIRMATION: [["CLOSED", 85], ["NOT_CLOSED", 15]],
  NOT_CLOSED: [["PENDING", 100]],
  CLOSED: [],
};

function at(day: string, random: Random, now: Date | undefined): string {
  const instant = `${day}T${String(random.int(6, 18)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}:00.000Z`;
  const latest = now?.toISOString();
  return latest && instant > latest ? latest : instant;
}

function usernameOf(firstname: string, lastname: string): string {
  return `${firstname[0]}${lastname}`.toLowerCase().normalize("NFD").replace(/[^a-z]/g, "");
}

/** Rolls every plant forward to `today`; returns what was written (by this call: days another instance rolled are not counted). */
export async function rollMaintenanceForward(db: SqlDb, plants: readonly DemoPlant[], options: RollForwardOptions): Promise<RollForwardResult> {
  const total: RollForwardResult = { days: 0, jobsDone: 0, plannedAdded: 0, tasksCreated: 0, taskMoves: 0 };
  for (const plant of plants) {
    if (!PEOPLE[plant.id] || !CUSTOMER_VOCABULARY[plant.customerId]) continue; // not a demo plant
    const roller = await createPlantRoller(db, plant, options);
    for (const day of await roller.daysToRoll()) {
      const result = await roller.rollDay(day);
      if (!result) continue; // rolled meanwhile by another instance
      total.days += 1;
      total.jobsDone += result.jobsDone;
      total.plannedAdded += result.plannedAdded;
      total.tasksCreated += result.tasksCreated;
      total.taskMoves += result.taskMoves;
    }
  }
  return total;
}

/** One value of the first row (the SQL names it `v`), or null. */
async function value<T>(db: SqlExecutor, sql: string, params: SqlParams): Promise<T | null> {
  return ((await db.get<{ v: T | null }>(sql, params))?.v ?? null) as T | null;
}

const SQL = {
  marker: `SELECT value AS v FROM demo_state WHERE key = @key`,
  setMarker: `INSERT INTO demo_state (key, value) VALUES (@key, @value) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  lastDone: `SELECT max(done_date) AS v FROM jobs_done WHERE plant_id = @plantId`,
  lastCreated: `SELECT max(created_date) AS v FROM tasks WHERE plant_id = @plantId`,
  // A plan's planned jobs are its own (the plans' tick opens their tasks, plans/evaluate.ts): the
  // roll does and releases only one-off work.
  dueBy: `SELECT * FROM planned_jobs WHERE plant_id = @plantId AND plan_id IS NULL AND due_date <= @dueBy ORDER BY due_date, id`,
  // Jobs written by a close-out are named after their task (`<task id>-J`), not numbered.
  lastJobId: `SELECT max(id) AS v FROM jobs_done WHERE plant_id = @plantId AND id LIKE @pattern`,
  lastPlannedId: `SELECT max(id) AS v FROM planned_jobs WHERE plant_id = @plantId AND id LIKE @pattern`,
  lastWorkOrder: `SELECT max(CAST(substr(work_order_id, 4) AS INTEGER)) AS v FROM (
      SELECT work_order_id FROM jobs_done WHERE plant_id = @plantId UNION ALL SELECT work_order_id FROM planned_jobs WHERE plant_id = @plantId) AS w
    WHERE work_order_id LIKE 'WO-%'`,
  insertJob: `INSERT INTO jobs_done (id, plant_id, asset_id, job_title, done_date, due_date, activity_kind, department,
    total_time_used_in_hours, required_person_count, is_final, work_order_id, work_order_remark, user_firstname, user_lastname,
    user_username) VALUES (@id, @plantId, @assetId, @jobTitle, @doneDate, @dueDate, @activityKind, @department, @hours,
    @requiredPersonCount, 1, @workOrderId, @workOrderRemark, @firstname, @lastname, @username)`,
  reschedule: `UPDATE planned_jobs SET due_date = @dueDate, work_order_id = NULL, work_order_remark = NULL WHERE id = @id`,
  removePlanned: `DELETE FROM planned_jobs WHERE id = @id`,
  insertPlanned: `INSERT INTO planned_jobs (id, plant_id, asset_id, job_title, due_date, activity_kind, department,
    estimated_time_in_hours, required_person_count, recurrence_every, recurrence_unit, work_order_id, work_order_remark)
    VALUES (@id, @plantId, @assetId, @jobTitle, @dueDate, @activityKind, @department, @hours, @requiredPersonCount, NULL, NULL, NULL, NULL)`,
  unreleased: `SELECT id FROM planned_jobs WHERE plant_id = @plantId AND plan_id IS NULL AND work_order_id IS NULL AND due_date <= @dueBy ORDER BY due_date, id`,
  release: `UPDATE planned_jobs SET work_order_id = @workOrderId WHERE id = @id`,
  nextTaskNumber: `SELECT coalesce(max(number), 0) + 1 AS v FROM tasks WHERE plant_id = @plantId`,
  insertTask: `INSERT INTO tasks (id, plant_id, number, asset_id, task_title, task_description, activity_kind, assigned_to_role,
    priority, status, created_date, due_date, incident_date, updated_at) VALUES (@id, @plantId, @number, @assetId, @title, @description,
    @activityKind, @role, @priority, 'NEED_APPROVAL', @createdDate, @dueDate, @incidentDate, @createdAt)`,
  openTasks: `SELECT id, status, updated_at AS "updatedAt" FROM tasks WHERE plant_id = @plantId AND status <> 'CLOSED' ORDER BY id`,
  moveTask: `UPDATE tasks SET status = @to, updated_at = @at WHERE id = @id AND status = @from`,
  insertTransition: `INSERT INTO task_transitions (task_id, from_status, to_status, remark, at, by_name, client_id)
    VALUES (@taskId, @from, @to, NULL, @at, @by, '${DEMO_TASK_CLIENT}')`,
};

async function createPlantRoller(db: SqlDb, plant: DemoPlant, options: RollForwardOptions) {
  const { seed } = options;
  const vocabulary = CUSTOMER_VOCABULARY[plant.customerId]!;
  const people = PEOPLE[plant.id]!;
  const assets = generateAssets(seed, plant).filter((a) => a.level === "MACHINE" || a.level === "COMPONENT");
  const known = new Set((await db.all<{ id: string }>(`SELECT id FROM assets WHERE plant_id = @plantId`, { plantId: plant.id })).map((row) => row.id));
  const workable = assets.filter((a) => known.has(a.id));
  const departmentOf = (asset: SeedAsset) => vocabulary.departments[asset.trade];
  const numberAfter = (id: string | null, prefix: string) => (id ? Number(id.slice(prefix.length)) : 0) + 1;

  return {
    /** Days after the marker up to today; the seed's day itself is never rolled (the seed drew it). */
    async daysToRoll(): Promise<string[]> {
      let marker = await value<string>(db, SQL.marker, { key: markerKey(plant.id) });
      if (!marker) {
        // A database seeded before the seed set the marker: its day is the newest task's (or the day after the newest job done).
        const lastDone = await value<string>(db, SQL.lastDone, { plantId: plant.id });
        const candidates = [lastDone && addDays(lastDone, 1), await value<string>(db, SQL.lastCreated, { plantId: plant.id })].filter((d): d is string => Boolean(d));
        marker = candidates.length > 0 ? candidates.sort().at(-1)! : options.today;
        await db.run(SQL.setMarker, { key: markerKey(plant.id), value: marker });
      }
      const days: string[] = [];
      const first = marker < addDays(options.today, -MAX_ROLL_DAYS) ? addDays(options.today, -MAX_ROLL_DAYS) : addDays(marker, 1);
      for (let day = first; day <= options.today; day = addDays(day, 1)) days.push(day);
      return days;
    },

    /** Rolls one day, or does nothing and answers null when the marker is already there. */
    rollDay(day: string) {
      return db.transaction(async (tx) => {
        // Instances roll one at a time, and the marker is read again under the lock.
        if (tx.engine === "postgres") await tx.run(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || 'demo-roll-forward'))`);
        const marker = await value<string>(tx, SQL.marker, { key: markerKey(plant.id) });
        if (marker && marker >= day) return null;

        const random = createRandom(seed, plant.id, "roll", day);
        const actorRandom = createRandom(seed, plant.id, "roll-actors", day);
        const result = { jobsDone: 0, plannedAdded: 0, tasksCreated: 0, taskMoves: 0 };
        const jobPrefix = `${plant.id}-J`;
        let jobNumber = numberAfter(await value<string>(tx, SQL.lastJobId, { plantId: plant.id, pattern: `${jobPrefix}%` }), jobPrefix);
        let workOrder = ((await value<number>(tx, SQL.lastWorkOrder, { plantId: plant.id })) ?? 4_000_000) + 1;

        // Planned occurrences whose completion day has come (up to 3 days early) are done.
        for (const job of await tx.all(SQL.dueBy, { plantId: plant.id, dueBy: addDays(day, 3) })) {
          const dueDate = job.due_date as string;
          if (addDays(dueDate, completionOffsetDays(seed, job.id as string, dueDate)) > day) continue;
          const [firstname, lastname] = random.pick(people);
          const estimated = Number(job.estimated_time_in_hours);
          // Members in the order of the seed's draws (random.next, then random.chance).
          await tx.run(SQL.insertJob, {
            id: `${jobPrefix}${String(jobNumber++).padStart(6, "0")}`,
            plantId: plant.id,
            assetId: job.asset_id,
            jobTitle: job.job_title,
            doneDate: day,
            dueDate,
            activityKind: job.activity_kind,
            department: job.department,
            hours: String(Math.max(0.25, Math.round(estimated * (0.7 + random.next() * 0.7) * 4) / 4)),
            requiredPersonCount: job.required_person_count,
            workOrderId: (job.work_order_id as string | null) ?? `WO-${workOrder++}`,
            workOrderRemark: (job.work_order_remark as string | null) ?? (random.chance(0.6) ? random.pick(WORK_ORDER_REMARKS) : null),
            firstname,
            lastname,
            username: usernameOf(firstname, lastname),
          });
          result.jobsDone += 1;
          // Recurring rows without a plan: a database seeded before the seed wrote plans.
          if (job.recurrence_every && job.recurrence_unit) {
            await tx.run(SQL.reschedule, {
              dueDate: nextOccurrence(dueDate, job.recurrence_every as number, job.recurrence_unit as "DAY" | "WEEK" | "MONTH"),
              id: job.id,
            });
          } else {
            await tx.run(SQL.removePlanned, { id: job.id });
          }
        }

        // New one-off work gets planned: repairs found on rounds, small modifications. About two a
        // day, the flow of planned work done before the plans took the recurring part (seed-plans.ts).
        const plannedPrefix = `${plant.id}-PJ`;
        let plannedNumber = numberAfter(await value<string>(tx, SQL.lastPlannedId, { plantId: plant.id, pattern: `${plannedPrefix}%` }), plannedPrefix);
        const newPlanned = random.weighted([[1, 30], [2, 45], [3, 25]] as const);
        for (let i = 0; i < newPlanned && workable.length > 0; i++) {
          const asset = random.pick(workable);
          const kind = random.weighted([["corrective", 60], ["modification", 15], ["inspection", 25]] as const);
          // Members in the order of the seed's draws (title, due date, hours, person count).
          await tx.run(SQL.insertPlanned, {
            id: `${plannedPrefix}${String(plannedNumber++).padStart(5, "0")}`,
            plantId: plant.id,
            assetId: asset.id,
            jobTitle: titleFor(random, kind, asset),
            dueDate: addDays(day, random.int(2, 45)),
            activityKind: vocabulary.activity[kind],
            department: departmentOf(asset),
            hours: hours(random, 0.5, kind === "modification" ? 16 : 6),
            requiredPersonCount: random.weighted([[1, 55], [2, 35], [3, 10]] as const),
          });
          result.plannedAdded += 1;
        }

        // Work orders are released for what falls due in the next three weeks.
        for (const { id } of await tx.all<{ id: string }>(SQL.unreleased, { plantId: plant.id, dueBy: addDays(day, 21) })) {
          await tx.run(SQL.release, { workOrderId: `WO-${workOrder++}`, id });
        }

        // Tasks arrive (about 2.5 a day, as in the seed) …
        const arrivals = random.int(1, 4);
        for (let i = 0; i < arrivals && workable.length > 0; i++) {
          const asset = random.pick(workable);
          const kind = random.weighted(TASK_KIND_WEIGHTS);
          const priorityIndex = random.weighted(TASK_PRIORITY_WEIGHTS);
          const number = (await value<number>(tx, SQL.nextTaskNumber, { plantId: plant.id }))!;
          const id = `${plant.id}-T${String(number).padStart(6, "0")}`;
          const createdAt = at(day, random, options.now);
          const { title, description, activityKind, role, priority, dueDate, incidentDate } = drawTaskFields(random, kind, priorityIndex, asset, vocabulary, day);
          await tx.run(SQL.insertTask, {
            id,
            plantId: plant.id,
            number,
            assetId: asset.id,
            title,
            description,
            activityKind,
            role,
            priority,
            createdDate: day,
            dueDate,
            incidentDate,
            createdAt,
          });
          await tx.run(SQL.insertTransition, { taskId: id, from: null, to: "NEED_APPROVAL", at: createdAt, by: demoActor(actorRandom, plant.id) });
          result.tasksCreated += 1;
        }

        // … and open ones move on: about one in sixteen each day (the seed's open pool stays about its size), along the allowed transitions.
        for (const task of await tx.all<{ id: string; status: TTaskStatus; updatedAt: string }>(SQL.openTasks, { plantId: plant.id })) {
          if (!random.chance(0.06)) continue;
          const choices = NEXT_STATUS_WEIGHTS[task.status].filter(([to]) => TASK_TRANSITIONS[task.status].includes(to));
          if (choices.length === 0) continue;
          const to = random.weighted(choices);
          let movedAt = at(day, random, options.now);
          if (movedAt < task.updatedAt) movedAt = task.updatedAt; // a move never predates the last one
          if ((await tx.run(SQL.moveTask, { to, at: movedAt, id: task.id, from: task.status })).changes === 0) continue;
          await tx.run(SQL.insertTransition, { taskId: task.id, from: task.status, to, at: movedAt, by: demoActor(actorRandom, plant.id) });
          result.taskMoves += 1;
        }

        await tx.run(SQL.setMarker, { key: markerKey(plant.id), value: day });
        return result;
      });
    },
  };
}

export interface MaintenanceRollForward {
  /** Rolls up to today now (the timer does this every `intervalMs`). */
  rollNow(): Promise<RollForwardResult>;
  /** Stops the timer; resolves when a roll under way has finished (before the database closes). */
  stop(): Promise<void>;
}

/** Rolls forward at once, then checks every `intervalMs` whether a new day has begun. */
export function startMaintenanceRollForward(
  db: SqlDb,
  options: { seed: string; today: () => string; now: () => Date; intervalMs?: number; log?: (line: string) => void; schedule?: boolean },
): MaintenanceRollForward {
  const plants = db.all<DemoPlant>(`SELECT id, name, customer_id AS "customerId", time_zone AS "timeZone" FROM plants ORDER BY id`);
  // One roll at a time in this process (a tick while the last one still runs waits for it).
  let rolling: Promise<unknown> = Promise.resolve();
  const rollNow = () => {
    const run = rolling.then(() => rollOnce());
    rolling = run.catch(() => undefined);
    return run;
  };
  const rollOnce = async () => {
    const result = await rollMaintenanceForward(db, await plants, { seed: options.seed, today: options.today(), now: options.now() });
    if (result.days > 0) {
      options.log?.(
        `[maintenance] demo rolled forward ${result.days} plant-day(s): ${result.jobsDone} jobs done, ${result.plannedAdded} jobs planned, ` +
          `${result.tasksCreated} tasks raised, ${result.taskMoves} task moves`,
      );
    }
    return result;
  };
  const tick = () => {
    rollNow().catch((error: unknown) => {
      options.log?.(`[maintenance] demo roll-forward failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  tick();
  const timer = options.schedule === false ? null : setInterval(tick, options.intervalMs ?? 10 * 60_000);
  timer?.unref();
  return {
    rollNow,
    stop: async () => {
      if (timer) clearInterval(timer);
      await rolling;
    },
  };
}
