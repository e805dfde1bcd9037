/**
 * Workspace organisation over real HTTP on the embedded service (docs/boards.md), with users of
 * different roles: a private board is its owner's alone (404 for everyone else on every route, admins
 * too), a board shared with a role is seen by that role and admins, a plant board by everyone; only
 * the owner and admins change, move or delete a board. Folders: unique names, moves, only an empty
 * one deleted. Export carries the folder and sharing and imports as the importer's own board. The
 * query library: saved by anyone who queries, changed by its owner and admins, found by title or
 * tag, and reached by id through a rename.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  const environment = (await import("@/lib/bff/testing/environment")).setTestEnvironment("workspace", { DEMO_PASSWORD: demoPassword, DEMO_LIVE: "0" });
  return { ...environment, demoPassword };
});

import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import { apiPath } from "@/lib/contract/api";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { findUser } from "@/lib/dashboard-store/users";
import type { TBoardFolder, TDashboard, TDashboardDefinition, TDashboardList } from "@/modules/boards/contract/boards";
import type { TSavedQuery } from "@/modules/boards/contract/saved-queries";
import { dashboardForPage } from "./routes";

const ENGINEER = "engineer@plantdesk.demo";
const PLANNER = "planner@plantdesk.demo";
const SUPERVISOR = "supervisor@plantdesk.demo";
const ADMIN = "admin@plantdesk.demo";
const EVERYONE = [ENGINEER, PLANNER, SUPERVISOR, ADMIN];

let dashboard: EmbeddedDashboard;
const cookies: Record<string, string> = {};
const call = (who: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => dashboard.api.call(path, { method, body, cookie: cookies[who], headers });

const definition = (title: string): TDashboardDefinition => ({
  title,
  description: "",
  range: "24h",
  refresh: "off",
  variables: [],
  panels: [{ id: "count", title: "Samples", query: "States | summarize Samples = count()", chart: "stat", unit: "", width: "half" }],
});

const boardPath = (id: number) => apiPath("getDashboard", { plantId: "RTM1", dashboardId: id });
const titlesFor = async (who: string) => ((await (await call(who, "GET", apiPath("listDashboards", { plantId: "RTM1" }))).json()) as TDashboardList).data.map((board) => board.title);
const create = async (who: string, title: string) => {
  const response = await call(who, "POST", apiPath("createDashboard", { plantId: "RTM1" }), definition(title));
  expect(response.status).toBe(201);
  return (await response.json()) as TDashboard;
};
const place = (who: string, id: number, folderId: number | null, visibility: "private" | "role" | "plant", role: string | null = null) =>
  call(who, "PUT", apiPath("placeDashboard", { plantId: "RTM1", dashboardId: id }), { folderId, sharing: { visibility, role } });
const makeFolder = async (who: string, name: string) => {
  const response = await call(who, "POST", apiPath("createBoardFolder", { plantId: "RTM1" }), { name });
  expect(response.status).toBe(201);
  return (await response.json()) as TBoardFolder;
};

/** The status of every route that names one board, for one user. */
async function statusesOn(who: string, board: TDashboard): Promise<number[]> {
  const id = board.id;
  return Promise.all([
    call(who, "GET", boardPath(id)).then((r) => r.status),
    call(who, "GET", apiPath("exportDashboard", { plantId: "RTM1", dashboardId: id })).then((r) => r.status),
    call(who, "PUT", apiPath("replaceDashboard", { plantId: "RTM1", dashboardId: id }), board.definition, { "if-match": `"${board.version}"` }).then((r) => r.status),
    place(who, id, null, "plant").then((r) => r.status),
    call(who, "DELETE", apiPath("deleteDashboard", { plantId: "RTM1", dashboardId: id }), undefined, { "if-match": `"${board.version}"` }).then((r) => r.status),
  ]);
}

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  for (const who of EVERYONE) cookies[who] = await dashboard.cookieFor(who);
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  env.remove();
});

describe("board sharing", () => {
  it("keeps a private board to its owner: 404 for every other user on every route, admins included", async () => {
    const mine = await create(ENGINEER, "Engineer's scratch");
    const placed = await place(ENGINEER, mine.id, null, "private");
    expect([placed.status, (await placed.json()).sharing]).toEqual([200, { visibility: "private", role: null }]);

    expect(await titlesFor(ENGINEER)).toContain("Engineer's scratch");
    for (const who of [PLANNER, SUPERVISOR, ADMIN]) expect(await titlesFor(who), who).not.toContain("Engineer's scratch");
    // The supervisor and the admin write boards: they get 404 (not 403) on reads and writes alike.
    for (const who of [SUPERVISOR, ADMIN]) expect(await statusesOn(who, mine), who).toEqual([404, 404, 404, 404, 404]);
    const plannerRead = await call(PLANNER, "GET", boardPath(mine.id));
    expect([plannerRead.status, (await plannerRead.json()).code]).toEqual([404, "NOT_FOUND"]);

    // The page's own read applies the same rule.
    const db = await getDashboardDb();
    expect(await dashboardForPage((await findUser(db, ADMIN))!, "RTM1", String(mine.id))).toBeNull();
    expect(await dashboardForPage((await findUser(db, ENGINEER))!, "RTM1", String(mine.id))).toMatchObject({ id: mine.id, canEdit: true });

    // Nothing was changed by the refused calls.
    expect(await (await call(ENGINEER, "GET", boardPath(mine.id))).json()).toMatchObject({ version: 1, sharing: { visibility: "private" } });
  });

  it("shows a board shared with planners to planners (read-only) and admins (who edit), not to supervisors", async () => {
    const board = await create(ENGINEER, "For the planners");
    expect((await place(ENGINEER, board.id, null, "role", "planner")).status).toBe(200);
    expect(await titlesFor(PLANNER)).toContain("For the planners");
    expect(await titlesFor(ADMIN)).toContain("For the planners");
    expect(await titlesFor(SUPERVISOR)).not.toContain("For the planners");
    expect((await call(SUPERVISOR, "GET", boardPath(board.id))).status).toBe(404);

    const asPlanner = (await (await call(PLANNER, "GET", boardPath(board.id))).json()) as TDashboard;
    expect(asPlanner.canEdit).toBe(false);
    const asAdmin = (await (await call(ADMIN, "GET", boardPath(board.id))).json()) as TDashboard;
    expect(asAdmin.canEdit).toBe(true);
    const adminSave = await call(ADMIN, "PUT", boardPath(board.id), { ...board.definition, description: "checked by the admin" }, { "if-match": '"1"' });
    expect(adminSave.status).toBe(200);

    const badRole = await place(ENGINEER, board.id, null, "role", null);
    expect([badRole.status, (await badRole.json()).data]).toEqual([400, [{ field: "sharing.role", problem: "name the role the board is shared with" }]]);
  });

  it("lets only the owner and admins move or delete a plant board; others read it", async () => {
    const board = await create(ENGINEER, "Everyone's");
    for (const who of EVERYONE) expect(await titlesFor(who), who).toContain("Everyone's");
    const list = (await (await call(SUPERVISOR, "GET", apiPath("listDashboards", { plantId: "RTM1" }))).json()) as TDashboardList;
    expect(list.data.find((item) => item.id === board.id)).toMatchObject({ owner: ENGINEER, canEdit: false, sharing: { visibility: "plant" } });
    expect((await place(SUPERVISOR, board.id, null, "private")).status).toBe(403);
    expect((await call(SUPERVISOR, "DELETE", boardPath(board.id))).status).toBe(403);
    expect((await call(PLANNER, "GET", apiPath("exportDashboard", { plantId: "RTM1", dashboardId: board.id }))).status).toBe(200);
    expect((await call(ADMIN, "DELETE", boardPath(board.id))).status).toBe(200);
    expect((await call(ENGINEER, "GET", boardPath(board.id))).status).toBe(404);
  });
});

describe("folders", () => {
  it("makes, renames, fills, empties and deletes a folder; names are unique in any case; planners make none", async () => {
    const folder = await makeFolder(SUPERVISOR, "Line 2");
    const again = await call(ENGINEER, "POST", apiPath("createBoardFolder", { plantId: "RTM1" }), { name: "LINE 2" });
    expect([again.status, (await again.json()).message]).toEqual([400, 'Plant RTM1 has a folder "LINE 2" already.']);
    expect((await call(PLANNER, "POST", apiPath("createBoardFolder", { plantId: "RTM1" }), { name: "Planner's" })).status).toBe(403);
    const renamed = await call(ENGINEER, "PUT", apiPath("renameBoardFolder", { plantId: "RTM1", folderId: folder.id }), { name: "Line 2 pumps" });
    expect([renamed.status, (await renamed.json()).name]).toEqual([200, "Line 2 pumps"]);

    const board = await create(ENGINEER, "Pumps of line 2");
    expect((await place(ENGINEER, board.id, folder.id, "plant")).status).toBe(200);
    const unknown = await place(ENGINEER, board.id, 999_999, "plant");
    expect([unknown.status, (await unknown.json()).data]).toEqual([400, [{ field: "folderId", problem: "no such folder" }]]);
    const list = (await (await call(PLANNER, "GET", apiPath("listDashboards", { plantId: "RTM1" }))).json()) as TDashboardList;
    expect(list.folders.map((item) => item.name)).toContain("Line 2 pumps");
    expect(list.data.find((item) => item.id === board.id)?.folderId).toBe(folder.id);

    // A private board of someone else keeps the folder from going too, though the admin cannot see it.
    expect((await place(ENGINEER, board.id, folder.id, "private")).status).toBe(200);
    const full = await call(ADMIN, "DELETE", apiPath("deleteBoardFolder", { plantId: "RTM1", folderId: folder.id }));
    expect([full.status, (await full.json()).data]).toEqual([400, [{ field: "folderId", problem: "not empty" }]]);
    expect((await place(ENGINEER, board.id, null, "private")).status).toBe(200);
    expect((await call(ADMIN, "DELETE", apiPath("deleteBoardFolder", { plantId: "RTM1", folderId: folder.id }))).status).toBe(200);
    expect((await call(ADMIN, "DELETE", apiPath("deleteBoardFolder", { plantId: "RTM1", folderId: folder.id }))).status).toBe(404);

    const audit = await (await getDashboardDb()).all<{ action: string; outcome: string }>("SELECT action, outcome FROM audit_log WHERE action LIKE 'dashboard-folder.%' ORDER BY id");
    expect(audit.map((row) => `${row.action} ${row.outcome}`)).toEqual([
      "dashboard-folder.create SUCCESS",
      "dashboard-folder.create INVALID_INPUT",
      "dashboard-folder.create FORBIDDEN",
      "dashboard-folder.rename SUCCESS",
      "dashboard-folder.delete INVALID_INPUT",
      "dashboard-folder.delete SUCCESS",
      "dashboard-folder.delete NOT_FOUND",
    ]);
  });

  it("exports the folder's name and the sharing; an import is the importer's board, in that folder (made when missing)", async () => {
    const folder = await makeFolder(ENGINEER, "Utilities");
    const board = await create(ENGINEER, "Compressed air");
    expect((await place(ENGINEER, board.id, folder.id, "role", "supervisor")).status).toBe(200);
    const file = await (await call(ENGINEER, "GET", apiPath("exportDashboard", { plantId: "RTM1", dashboardId: board.id }))).json();
    expect(file).toMatchObject({ format: "plantdesk-dashboard", formatVersion: 1, folder: "Utilities", sharing: { visibility: "role", role: "supervisor" } });

    const imported = await call(SUPERVISOR, "POST", apiPath("importDashboard", { plantId: "RTM1" }), file);
    expect(imported.status).toBe(201);
    const copy = (await imported.json()) as TDashboard;
    expect(copy).toMatchObject({ owner: SUPERVISOR, folderId: folder.id, canEdit: true, sharing: { visibility: "role", role: "supervisor" } });
    const again = await (await call(SUPERVISOR, "GET", apiPath("exportDashboard", { plantId: "RTM1", dashboardId: copy.id }))).json();
    expect({ ...again, exportedAt: null }).toEqual({ ...file, exportedAt: null });

    // Into a folder the plant lacks: made; a file from before folders (no folder, no sharing): the whole plant.
    const elsewhere = (await (await call(ENGINEER, "POST", apiPath("importDashboard", { plantId: "RTM1" }), { ...file, folder: "Imported boards" })).json()) as TDashboard;
    const folders = ((await (await call(ENGINEER, "GET", apiPath("listDashboards", { plantId: "RTM1" }))).json()) as TDashboardList).folders;
    expect(folders.find((item) => item.id === elsewhere.folderId)?.name).toBe("Imported boards");
    const { folder: _folder, sharing: _sharing, ...oldFile } = file;
    const old = (await (await call(ENGINEER, "POST", apiPath("importDashboard", { plantId: "RTM1" }), oldFile)).json()) as TDashboard;
    expect(old).toMatchObject({ owner: ENGINEER, folderId: null, sharing: { visibility: "plant", role: null } });
  });
});

describe("the query library", () => {
  const body = { title: "Pump temperatures", description: "Hourly mean per pump", tags: ["Pumps", "line 2", "pumps"], query: 'States | where Name == "Temperature" | summarize avg(todouble(Value)) by bin(Timestamp, 1h)' };
  let saved: TSavedQuery;

  it("saves a query with tags (lower-case, each once) and lists it for the whole plant; a bad one is refused whole", async () => {
    const response = await call(ENGINEER, "POST", apiPath("createSavedQuery", { plantId: "RTM1" }), body);
    expect(response.status).toBe(201);
    saved = await response.json();
    expect(saved).toMatchObject({ owner: ENGINEER, tags: ["pumps", "line 2"], lastRunAt: null, canEdit: true });
    const asPlanner = (await (await call(PLANNER, "GET", apiPath("listSavedQueries", { plantId: "RTM1" }))).json()).data as TSavedQuery[];
    expect(asPlanner.find((query) => query.id === saved.id)).toMatchObject({ title: "Pump temperatures", canEdit: false });

    const badTag = await call(ENGINEER, "POST", apiPath("createSavedQuery", { plantId: "RTM1" }), { ...body, tags: ["#hash"] });
    expect([badTag.status, (await badTag.json()).data[0].field]).toEqual([400, "tags.0"]);
    const extra = await call(ENGINEER, "POST", apiPath("createSavedQuery", { plantId: "RTM1" }), { ...body, owner: PLANNER });
    expect(extra.status).toBe(400);
  });

  it("finds queries by title words and by tag", async () => {
    await call(PLANNER, "POST", apiPath("createSavedQuery", { plantId: "RTM1" }), { title: "Alarm counts", description: "", tags: ["alarms"], query: "Events | count" });
    const search = async (query: string) =>
      ((await (await call(SUPERVISOR, "GET", `${apiPath("listSavedQueries", { plantId: "RTM1" })}?${query}`)).json()).data as TSavedQuery[]).map((item) => item.title);
    expect(await search("q=pump%20TEMP")).toEqual(["Pump temperatures"]);
    expect(await search("q=line%202")).toEqual(["Pump temperatures"]);
    expect(await search("tag=alarms")).toEqual(["Alarm counts"]);
    expect(await search("tag=Pumps&q=alarm")).toEqual([]);
    expect(await search("")).toEqual(["Alarm counts", "Pump temperatures"]);
  });

  it("lets the owner and admins change and delete it, and keeps the link by id through a rename", async () => {
    const link = apiPath("getSavedQuery", { plantId: "RTM1", savedQueryId: saved.id });
    expect((await call(PLANNER, "PUT", link, { ...body, title: "Planner's" })).status).toBe(403);
    expect((await call(SUPERVISOR, "DELETE", link)).status).toBe(403);
    const renamed = await call(ADMIN, "PUT", link, { ...body, title: "Pump temperatures (hourly)" });
    expect([renamed.status, (await renamed.json()).owner]).toEqual([200, ENGINEER]);
    expect(await (await call(PLANNER, "GET", link)).json()).toMatchObject({ id: saved.id, title: "Pump temperatures (hourly)", updatedBy: ADMIN });

    // Using it records the last run, for everyone to see.
    const run = await call(PLANNER, "POST", apiPath("runSavedQuery", { plantId: "RTM1", savedQueryId: saved.id }));
    expect(await run.json()).toMatchObject({ lastRunBy: PLANNER });
    expect((await (await call(ENGINEER, "GET", link)).json()).lastRunAt).toEqual(expect.any(String));

    // Another plant does not reach it; a deleted one is gone for everyone.
    expect((await call(ADMIN, "GET", apiPath("getSavedQuery", { plantId: "HOU1", savedQueryId: saved.id }))).status).toBe(404);
    expect((await call(ENGINEER, "DELETE", link)).status).toBe(200);
    const gone = await call(PLANNER, "GET", link);
    expect([gone.status, (await gone.json()).message]).toEqual([404, `No saved query ${saved.id} at plant RTM1: it may have been deleted.`]);
  });
});
