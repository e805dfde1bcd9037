import "server-only";
/**
 * The `/api/` work of a plant's dashboards (docs/api.md, "Dashboards"); lib/bff/routes.ts binds
 * each to its path, permission and audit action. A board belongs to its plant: everyone who may
 * open the plant sees it, supervisors, engineers and admins change it. A save names the version it
 * edited in `If-Match`; an older one is refused (412 EDIT_CONFLICT) with nothing written. The panels'
 * queries run through `/api/telemetry/query` like the explorer's, on the user's own budget.
 */
import { getConfig } from "@/lib/config";
import { ApiError, invalidInput, type FieldProblem } from "@/lib/contract/errors";
import {
  DASHBOARD_EXPORT_FORMAT,
  DASHBOARD_LIMITS,
  ZDashboardDefinition,
  ZDashboardExport,
  type TBoardPlacement,
  type TDashboard,
  type TDashboardDefinition,
  type TDashboardExport,
} from "@/modules/boards/contract/boards";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import {
  countDashboards,
  countFolders,
  createDashboard,
  createFolder,
  deleteDashboard,
  folderNamed,
  getDashboard,
  getFolder,
  listDashboards,
  listFolders,
  replaceDashboard,
  summarize,
  type SaveOutcome,
  type StoredDashboard,
} from "@/modules/boards/store/boards";
import { canEditBoard, canSeeBoard, type Viewer } from "@/modules/boards/contract/access";
import { PLANT_HEALTH, PLANT_HEALTH_SEED } from "@/modules/boards/store/plant-health";
import { isBuiltinVariable, variablesUsed } from "@/lib/kql/variables";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import type { SqlDb, SqlExecutor } from "@/lib/platform/sql";
import { canReachPlant, hasPermission } from "@/lib/contract/roles";
import type { DashboardUser } from "@/lib/dashboard-store/users";
import type { ApiContext } from "@/lib/api-handler/handler";

const KIB = DASHBOARD_LIMITS.maxImportBytes / 1024;

const viewerOf = (context: ApiContext): Viewer => ({ email: context.user.email, role: context.user.role });

/** The board as this user gets it: with what they may do, or null when they may not see it. */
export function asSeenBy(viewer: Viewer, board: StoredDashboard | null): TDashboard | null {
  if (!board || !canSeeBoard(viewer, board)) return null;
  return { ...board, canEdit: canEditBoard(viewer, board) };
}

/** The board if this user sees it; 404 otherwise (a private board of someone else is not theirs to know of). */
async function visibleBoard(db: SqlExecutor, context: ApiContext, id: number): Promise<TDashboard> {
  const board = asSeenBy(viewerOf(context), await getDashboard(db, context.plant!.id, id));
  if (!board) throw notFound(context, id);
  return board;
}

/** The board if this user may change it: 404 when they do not see it, 403 when they only read it. */
export async function editableBoard(db: SqlExecutor, context: ApiContext, id: number): Promise<TDashboard> {
  const board = await visibleBoard(db, context, id);
  if (!board.canEdit) throw new ApiError("FORBIDDEN", `Only ${board.owner}, who owns "${board.definition.title}", and admins change it; you can read it.`);
  return board;
}

export function dashboardId(context: ApiContext): number {
  const text = context.params.dashboardId ?? "";
  const id = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw notFound(context, text.slice(0, 40));
  return id;
}

const notFound = (context: ApiContext, id: number | string) => new ApiError("NOT_FOUND", `No dashboard ${id} on plant ${context.plant!.id}.`);

/** The body as JSON, refused whole when larger than a dashboard file may be. */
function boundedBody(context: ApiContext): unknown {
  const size = context.req.body?.byteLength ?? 0;
  if (size > DASHBOARD_LIMITS.maxImportBytes) {
    throw new ApiError("PAYLOAD_TOO_LARGE", `A dashboard is at most ${KIB} KiB of JSON; this one is ${Math.ceil(size / 1024)} KiB.`);
  }
  return readJsonBody(context.req);
}

/** Every `$name` of every panel is a variable of the board (or the board's own `$__bin`). */
function checkVariables(definition: TDashboardDefinition, prefix: string): void {
  const declared = new Set(definition.variables.map((variable) => variable.name));
  const problems = definition.panels.flatMap((panel, index) =>
    variablesUsed(panel.query)
      .filter((use) => !isBuiltinVariable(use.name) && !declared.has(use.name))
      .map((use) => ({ title: panel.title, field: `${prefix}panels.${index}.query`, problem: `$${use.name} (line ${use.line}, column ${use.column}) is not a variable of this dashboard` })),
  );
  if (problems.length > 0) {
    throw invalidInput(
      `Panel "${problems[0]!.title}": ${problems[0]!.problem}.`,
      problems.map(({ field, problem }): FieldProblem => ({ field, problem })),
    );
  }
}

function definitionOf(context: ApiContext): TDashboardDefinition {
  const definition = parseWith(ZDashboardDefinition, boundedBody(context), "dashboard");
  checkVariables(definition, "");
  context.audit.detail = { title: definition.title.slice(0, 100), panels: definition.panels.length, variables: definition.variables.length };
  return definition;
}

/** The version `If-Match` names: `"3"`, `W/"3"` or `3`. Null when the header is absent. */
function ifMatchVersion(context: ApiContext, required: boolean): number | null {
  const header = context.req.headers["if-match"];
  if (header === undefined) {
    if (!required) return null;
    throw invalidInput("Say which version you edited: send If-Match with the dashboard's ETag.", [{ field: "If-Match", problem: "required" }]);
  }
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw invalidInput("If-Match must be the dashboard's ETag, e.g. \"3\".", [{ field: "If-Match", problem: "malformed" }]);
  return Number(match[1]);
}

const etag = (dashboard: Pick<TDashboard, "version">) => `"${dashboard.version}"`;

export function answer(dashboard: TDashboard, status = 200) {
  return json(dashboard, status, { etag: etag(dashboard), "cache-control": "private, no-cache" });
}

function settled(context: ApiContext, outcome: SaveOutcome, id: number): StoredDashboard {
  if (outcome.ok) return outcome.dashboard;
  if (outcome.reason === "missing") throw notFound(context, id);
  throw new ApiError(
    "EDIT_CONFLICT",
    `${outcome.current.updatedBy} saved this dashboard after you opened it (now version ${outcome.current.version}). Nothing of yours was saved: reload it, then make your change again.`,
    [{ field: "If-Match", problem: `version ${outcome.current.version} is current` }],
    { etag: etag(outcome.current) },
  );
}

async function checkRoom(db: SqlDb, context: ApiContext): Promise<void> {
  if ((await countDashboards(db, context.plant!.id)) >= DASHBOARD_LIMITS.maxPerPlant) {
    throw invalidInput(`A plant has at most ${DASHBOARD_LIMITS.maxPerPlant} dashboards; delete one first.`, [{ field: "(body)", problem: "too many dashboards" }]);
  }
}

/** The plant's folder of this name (any case), made for an import when there is none. */
async function folderFor(db: SqlDb, context: ApiContext, name: string) {
  const plantId = context.plant!.id;
  const found = await folderNamed(db, plantId, name);
  if (found) return found;
  if ((await countFolders(db, plantId)) >= DASHBOARD_LIMITS.maxFolders) {
    throw invalidInput(`A plant has at most ${DASHBOARD_LIMITS.maxFolders} folders; the file's folder "${name}" is not one of them.`, [{ field: "folder", problem: "too many folders" }]);
  }
  // Another import may have made it meanwhile: then that one is the folder.
  return (await createFolder(db, plantId, name, context.user.email)) ?? (await folderNamed(db, plantId, name))!;
}

/** Demo plants start with "Plant health", seeded once per plant (the store's seed key decides). */
const seeded = new Set<string>();
async function seedDemoBoard(db: SqlDb, plantId: string): Promise<void> {
  if (!getConfig().dashboard.demo || seeded.has(plantId)) return;
  await createDashboard(db, plantId, PLANT_HEALTH, "Plantdesk (demo)", { seed: PLANT_HEALTH_SEED });
  seeded.add(plantId);
}

export const dashboardHandlers = {
  async list(context: ApiContext) {
    const db = await getDashboardDb();
    await seedDemoBoard(db, context.plant!.id);
    const viewer = viewerOf(context);
    const boards = (await listDashboards(db, context.plant!.id)).flatMap((board) => asSeenBy(viewer, board) ?? []);
    return json({ data: boards.map(summarize), folders: await listFolders(db, context.plant!.id) });
  },

  /** A new board of the user's, shared with the plant (what every board was before sharing); placement moves it. */
  async create(context: ApiContext) {
    const definition = definitionOf(context);
    const db = await getDashboardDb();
    await checkRoom(db, context);
    const dashboard = asSeenBy(viewerOf(context), await createDashboard(db, context.plant!.id, definition, context.user.email))!;
    context.audit.target = String(dashboard.id);
    return answer(dashboard, 201);
  },

  /**
   * A file someone exported: validated whole, then a new board owned by the importer, in the
   * folder the file names (made when the plant has none of that name) and shared as the file says;
   * a bad file changes nothing.
   */
  async importFile(context: ApiContext) {
    const file = parseWith(ZDashboardExport, boundedBody(context), "dashboard file") as TDashboardExport;
    checkVariables(file.dashboard, "dashboard.");
    context.audit.detail = { title: file.dashboard.title.slice(0, 100), panels: file.dashboard.panels.length, variables: file.dashboard.variables.length };
    const db = await getDashboardDb();
    await checkRoom(db, context);
    const placement: TBoardPlacement = {
      folderId: file.folder ? (await folderFor(db, context, file.folder)).id : null,
      sharing: file.sharing ?? { visibility: "plant", role: null },
    };
    const dashboard = asSeenBy(viewerOf(context), await createDashboard(db, context.plant!.id, file.dashboard, context.user.email, { placement }))!;
    context.audit.target = String(dashboard.id);
    return answer(dashboard, 201);
  },

  async get(context: ApiContext) {
    return answer(await visibleBoard(await getDashboardDb(), context, dashboardId(context)));
  },

  async replace(context: ApiContext) {
    const id = dashboardId(context);
    context.audit.target = String(id);
    const version = ifMatchVersion(context, true)!;
    const definition = definitionOf(context);
    const db = await getDashboardDb();
    await editableBoard(db, context, id);
    const outcome = await replaceDashboard(db, context.plant!.id, id, version, definition, context.user.email);
    const dashboard = asSeenBy(viewerOf(context), settled(context, outcome, id))!;
    context.audit.detail = { ...context.audit.detail, version: dashboard.version };
    return answer(dashboard);
  },

  async remove(context: ApiContext) {
    const id = dashboardId(context);
    context.audit.target = String(id);
    const db = await getDashboardDb();
    await editableBoard(db, context, id);
    const outcome = await deleteDashboard(db, context.plant!.id, id, ifMatchVersion(context, false));
    const dashboard = settled(context, outcome, id);
    context.audit.detail = { title: dashboard.definition.title.slice(0, 100) };
    return json({ id, deleted: true });
  },

  async exportFile(context: ApiContext) {
    const db = await getDashboardDb();
    const dashboard = await visibleBoard(db, context, dashboardId(context));
    const folder = dashboard.folderId === null ? null : await getFolder(db, context.plant!.id, dashboard.folderId);
    const file: TDashboardExport = {
      format: DASHBOARD_EXPORT_FORMAT,
      formatVersion: 1,
      exportedAt: new Date().toISOString(),
      dashboard: dashboard.definition,
      folder: folder?.name ?? null,
      sharing: dashboard.sharing,
    };
    const name = dashboard.definition.title.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "dashboard";
    return json(file, 200, { "content-disposition": `attachment; filename="${name}.dashboard.json"`, "cache-control": "no-store" });
  },
};

/**
 * The board a dashboard page is rendered with (the same checks as `GET …/dashboards/{id}`: the
 * plant, the permission), so its panels' queries start as the page hydrates instead of after one
 * more round trip for the board. Null when the user may not read it or it does not exist: the page
 * then asks the API, which says why in words.
 */
export async function dashboardForPage(user: DashboardUser, plantId: string, idText: string): Promise<TDashboard | null> {
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) return null;
  if (!canReachPlant(user.role, user.plants, plantId) || !hasPermission(user.role, "dashboards:read")) return null;
  return asSeenBy({ email: user.email, role: user.role }, await getDashboard(await getDashboardDb(), plantId, id));
}
