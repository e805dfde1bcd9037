import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seedMaintenance } from "../seed/maintenance";
import { createSqliteMaintenanceStore } from "./maintenance-store";
import { openDatabase } from "./sqlite";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-maint-store-"));
const first = openDatabase(dir);
seedMaintenance(first, { seed: "store-test", today: "2026-06-15", sizes: { jobsDone: 50, plannedJobs: 10, tasks: 10, parts: 10 } });
const second = openDatabase(dir);

afterAll(() => {
  first.close();
  second.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("SQLite maintenance store", () => {
  it("re-applying migrations is a no-op", () => {
    expect(first.prepare("SELECT count(*) FROM schema_migrations").pluck().get()).toBeGreaterThanOrEqual(1);
    const again = openDatabase(dir);
    again.close();
  });

  it("list totals follow writes on this connection and commits by another one", () => {
    const store = createSqliteMaintenanceStore(first);
    const other = createSqliteMaintenanceStore(second);
    const total = () => store.listTasks("RTM1", { page: 1, pageSize: 1 }).totalPages;
    const before = total();
    const task = {
      taskTitle: "t",
      taskDescription: null,
      activityKind: "CORRECTIVE",
      assignedToRole: null,
      priority: "P3",
      createdDate: "2026-06-15",
      dueDate: null,
      incidentDate: null,
      assetId: first.prepare("SELECT id FROM assets WHERE plant_id = 'RTM1' LIMIT 1").pluck().get() as string,
    };
    store.createTask("RTM1", task);
    expect(total()).toBe(before + 1);
    other.createTask("RTM1", task);
    expect(total()).toBe(before + 2);
  });
});
