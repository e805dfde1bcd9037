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
  type TDashboard,
  type TDashboardDefinition,
  type TDashboardExport,
} from "@/modules/boards/contract/boards";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { countDashboards, createDashboard, deleteDashboard, getDashboard, listDashboards, replaceDashboard, summarize, type SaveOutcome } from "@/modules/boards/store/boards";
import { PLANT_HEALTH, PLANT_HEALTH_SEED } from "@/modules/boards/store/plant-health";
import { isBuiltinVariable, variablesUsed } from "@/lib/kql/variables";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import type { SqlDb } from "@/lib/platform/sql";
import { canReachPlant, hasPermission } from "@/lib/contract/roles";
import type { DashboardUser } from "@/lib/dashboard-store/users";
import type { ApiContext } from "@/lib/api-handler/handler";

const KIB = DASHBOARD_LIMITS.maxImportBytes / 1024;

function dashboardId(context: ApiContext): number {
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

const etag = (dashboard: TDashboard) => `"${dashboard.version}"`;

function answer(dashboard: TDashboard, status = 200) {
  return json(dashboard, status, { etag: etag(dashboard), "cache-control": "private, no-cache" });
}

function settled(context: ApiContext, outcome: SaveOutcome, id: number): TDashboard {
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
    return json({ data: (await listDashboards(db, context.plant!.id)).map(summarize) });
  },

  async create(context: ApiContext) {
    const definition = definitionOf(context);
    const db = await getDashboardDb();
    await checkRoom(db, context);
    const dashboard = (await createDashboard(db, context.plant!.id, definition, context.user.email))!;
    context.audit.target = String(dashboard.id);
    return answer(dashboard, 201);
  },

  /** A file someone exported: validated whole, then a new board; a bad file changes nothing. */
  async importFile(context: ApiContext) {
    const file = parseWith(ZDashboardExport, boundedBody(context), "dashboard file") as TDashboardExport;
    checkVariables(file.dashboard, "dashboard.");
    context.audit.detail = { title: file.dashboard.title.slice(0, 100), panels: file.dashboard.panels.length, variables: file.dashboard.variables.length };
    const db = await getDashboardDb();
    await checkRoom(db, context);
    const dashboard = (await createDashboard(db, context.plant!.id, file.dashboard, context.user.email))!;
    context.audit.target = String(dashboard.id);
    return answer(dashboard, 201);
  },

  async get(context: ApiContext) {
    const id = dashboardId(context);
    const dashboard = await getDashboard(await getDashboardDb(), context.plant!.id, id);
    if (!dashboard) throw notFound(context, id);
    return answer(dashboard);
  },

  async replace(context: ApiContext) {
    const id = dashboardId(context);
    context.audit.target = String(id);
    const version = ifMatchVersion(context, true)!;
    const definition = definitionOf(context);
    const outcome = await replaceDashboard(await getDashboardDb(), context.plant!.id, id, version, definition, context.user.email);
    const dashboard = settled(context, outcome, id);
    context.audit.detail = { ...context.audit.detail, version: dashboard.version };
    return answer(dashboard);
  },

  async remove(context: ApiContext) {
    const id = dashboardId(context);
    context.audit.target = String(id);
    const outcome = await deleteDashboard(await getDashboardDb(), context.plant!.id, id, ifMatchVersion(context, false));
    const dashboard = settled(context, outcome, id);
    context.audit.detail = { title: dashboard.definition.title.slice(0, 100) };
    return json({ id, deleted: true });
  },

  async exportFile(context: ApiContext) {
    const id = dashboardId(context);
    const dashboard = await getDashboard(await getDashboardDb(), context.plant!.id, id);
    if (!dashboard) throw notFound(context, id);
    const file: TDashboardExport = { format: DASHBOARD_EXPORT_FORMAT, formatVersion: 1, exportedAt: new Date().toISOString(), dashboard: dashboard.definition };
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
  return getDashboard(await getDashboardDb(), plantId, id);
}
