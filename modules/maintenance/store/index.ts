/**
 * Every query of the maintenance interface, written once against the kernel's SQL interface
 * (lib/platform/sql.ts), which SQLite (the embedded default) and PostgreSQL (`DATABASE_URL`) both
 * implement: named parameters, list parameters, transactions and the statement cache are the
 * kernel's. What stays particular to this store is small: the totals cache of the list queries
 * (countTotals, page.ts) and the plant lock of task creation (PLANT_WRITE_LOCK, task-writes.ts).
 * Rows are mapped straight to the API's records, so a handler only serialises.
 *
 * Several instances may write one PostgreSQL database at once, so each write rule is one
 * transaction whose SQL itself decides races (READ COMMITTED, PostgreSQL's default): a conditional
 * UPDATE, INSERT … ON CONFLICT. Text columns use the "C" collation (lib/platform/migration.ts), so
 * ids sort as plain strings on both engines.
 *
 * This file only assembles the store; each subject is a module of this folder: plants.ts,
 * assets.ts, jobs.ts (jobs done), planned.ts, tasks.ts (reads), task-writes.ts, close-out.ts,
 * lookups.ts, parts-stock.ts, idempotency.ts; page.ts and filters.ts are what the lists share.
 */
import type { SqlDb } from "@/lib/platform/sql";
import { assetReads, type AssetReads } from "./assets";
import { taskCloseOut, type TaskCloseOut } from "./close-out";
import { idempotencyReads, type IdempotencyReads } from "./idempotency";
import { jobsDoneReads, type JobsDoneReads } from "./jobs";
import { lookupReads, type LookupReads } from "./lookups";
import { createPager } from "./page";
import { partsAndStock, type PartsAndStock } from "./parts-stock";
import { plannedJobReads, type PlannedJobReads } from "./planned";
import { plantReads, type PlantReads } from "./plants";
import { taskWrites, type TaskWrites } from "./task-writes";
import { taskReads, type TaskReads } from "./tasks";

export type { CloseOutRecord, CloseOutResult, StockMove } from "./close-out";
export type { IdempotencyRecord } from "./idempotency";
export type { PageRequest } from "./page";
export type { NewStockLevel, PartRecord } from "./parts-stock";
export type { CustomerRecord, PlantRecord } from "./plants";
export type { NewTask, TaskChanges } from "./task-writes";
export type { Actor } from "./tasks";

export interface MaintenanceStore
  extends PlantReads,
    JobsDoneReads,
    PlannedJobReads,
    AssetReads,
    TaskReads,
    TaskWrites,
    IdempotencyReads,
    TaskCloseOut,
    LookupReads,
    PartsAndStock {}

/** The maintenance store on the service's database, either engine (lib/service/database.ts opens it). */
export function createMaintenanceStore(engine: SqlDb): MaintenanceStore {
  const page = createPager(engine);
  return {
    ...plantReads(engine),
    ...jobsDoneReads(engine, page),
    ...plannedJobReads(page),
    ...assetReads(engine, page),
    ...taskReads(engine, page),
    ...taskWrites(engine),
    ...idempotencyReads(engine),
    ...taskCloseOut(engine),
    ...lookupReads(engine, page),
    ...partsAndStock(engine, page),
  };
}
