import "server-only";
/**
 * The `/api/` rows of workspace organisation (docs/boards.md): a board's folder and sharing, the
 * plant's folders, and the plant's library of saved queries. lib/bff/routes.ts serves them with
 * the dashboard's other routes; permissions and audit actions are here, with the work.
 */
import { ApiError, invalidInput } from "@/lib/contract/errors";
import type { Permission } from "@/lib/contract/roles";
import type { DashboardRouteId } from "@/lib/contract/routes";
import { DASHBOARD_LIMITS } from "@/lib/contract/dashboard-vocabulary";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import type { ApiContext, ApiRouteSpec } from "@/lib/api-handler/handler";
import { ZBoardFolderBody, ZBoardPlacement } from "@/modules/boards/contract/boards";
import { canEditSavedQuery } from "@/modules/boards/contract/access";
import { ZSavedQueryBody, ZSavedQuerySearch, matchesSearch, type TSavedQuery } from "@/modules/boards/contract/saved-queries";
import { countFolders, createFolder, deleteFolder, getFolder, placeDashboard, renameFolder, type FolderOutcome } from "@/modules/boards/store/boards";
import {
  countSavedQueries,
  createSavedQuery,
  deleteSavedQuery,
  getSavedQuery,
  listSavedQueries,
  markSavedQueryRun,
  replaceSavedQuery,
  type StoredSavedQuery,
} from "@/modules/boards/store/saved-queries";
import { answer, asSeenBy, dashboardId, editableBoard } from "./routes";

type WorkspaceRouteId = Extract<
  DashboardRouteId,
  | "placeDashboard"
  | "createBoardFolder"
  | "renameBoardFolder"
  | "deleteBoardFolder"
  | "listSavedQueries"
  | "createSavedQuery"
  | "getSavedQuery"
  | "replaceSavedQuery"
  | "deleteSavedQuery"
  | "runSavedQuery"
>;

function idParam(context: ApiContext, name: string, what: string): number {
  const text = context.params[name] ?? "";
  const id = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError("NOT_FOUND", `No ${what} ${text.slice(0, 40)} at plant ${context.plant!.id}.`);
  return id;
}

// ---- a board's folder and sharing ----

/** Moves a board (its owner or an admin) into a folder of the plant, or out of any, and sets who sees it. */
async function place(context: ApiContext) {
  const id = dashboardId(context);
  context.audit.target = String(id);
  const placement = parseWith(ZBoardPlacement, readJsonBody(context.req), "placement");
  context.audit.detail = { folderId: placement.folderId, visibility: placement.sharing.visibility, role: placement.sharing.role };
  const db = await getDashboardDb();
  await editableBoard(db, context, id);
  if (placement.folderId !== null && !(await getFolder(db, context.plant!.id, placement.folderId))) {
    throw invalidInput(`There is no folder ${placement.folderId} at plant ${context.plant!.id}.`, [{ field: "folderId", problem: "no such folder" }]);
  }
  const placed = await placeDashboard(db, context.plant!.id, id, placement, context.user.email);
  if (!placed) throw new ApiError("NOT_FOUND", `No dashboard ${id} on plant ${context.plant!.id}.`);
  // An admin who makes someone's board private no longer sees it: the answer says so (canEdit false).
  return answer(asSeenBy(context.user, placed) ?? { ...placed, canEdit: false });
}

// ---- folders: the plant's, named by anyone who writes boards ----

function folderSettled(context: ApiContext, outcome: FolderOutcome, name: string) {
  if (outcome.ok) return outcome.folder;
  if (outcome.reason === "missing") throw new ApiError("NOT_FOUND", `No folder ${context.params.folderId} at plant ${context.plant!.id}.`);
  if (outcome.reason === "taken") throw invalidInput(`Plant ${context.plant!.id} has a folder "${name}" already.`, [{ field: "name", problem: "taken" }]);
  throw invalidInput("Only an empty folder can be deleted: move its dashboards out first (some may be private dashboards of others).", [{ field: "folderId", problem: "not empty" }]);
}

async function createBoardFolder(context: ApiContext) {
  const { name } = parseWith(ZBoardFolderBody, readJsonBody(context.req), "folder");
  context.audit.detail = { name: name.slice(0, 100) };
  const db = await getDashboardDb();
  if ((await countFolders(db, context.plant!.id)) >= DASHBOARD_LIMITS.maxFolders) {
    throw invalidInput(`A plant has at most ${DASHBOARD_LIMITS.maxFolders} folders; delete an empty one first.`, [{ field: "name", problem: "too many folders" }]);
  }
  const made = await createFolder(db, context.plant!.id, name, context.user.email);
  const folder = folderSettled(context, made ? { ok: true, folder: made } : { ok: false, reason: "taken" }, name);
  context.audit.target = String(folder.id);
  return json(folder, 201);
}

async function renameBoardFolder(context: ApiContext) {
  const id = idParam(context, "folderId", "folder");
  context.audit.target = String(id);
  const { name } = parseWith(ZBoardFolderBody, readJsonBody(context.req), "folder");
  context.audit.detail = { name: name.slice(0, 100) };
  return json(folderSettled(context, await renameFolder(await getDashboardDb(), context.plant!.id, id, name), name));
}

async function deleteBoardFolder(context: ApiContext) {
  const id = idParam(context, "folderId", "folder");
  context.audit.target = String(id);
  const folder = folderSettled(context, await deleteFolder(await getDashboardDb(), context.plant!.id, id), "");
  context.audit.detail = { name: folder.name.slice(0, 100) };
  return json({ id, deleted: true });
}

// ---- the query library: the plant's, changed by its owner and admins ----

const withRights = (context: ApiContext, query: StoredSavedQuery): TSavedQuery => ({ ...query, canEdit: canEditSavedQuery(context.user, query) });

async function savedQuery(context: ApiContext): Promise<StoredSavedQuery> {
  const id = idParam(context, "savedQueryId", "saved query");
  context.audit.target = String(id);
  const found = await getSavedQuery(await getDashboardDb(), context.plant!.id, id);
  if (!found) throw new ApiError("NOT_FOUND", `No saved query ${id} at plant ${context.plant!.id}: it may have been deleted.`);
  return found;
}

async function editableSavedQuery(context: ApiContext): Promise<StoredSavedQuery> {
  const found = await savedQuery(context);
  if (!canEditSavedQuery(context.user, found)) throw new ApiError("FORBIDDEN", `Only ${found.owner}, who saved "${found.title}", and admins change it; you can use it.`);
  return found;
}

function savedQueryBody(context: ApiContext) {
  const body = parseWith(ZSavedQueryBody, readJsonBody(context.req), "saved query");
  context.audit.detail = { title: body.title.slice(0, 100), tags: body.tags.join(",").slice(0, 100) };
  return body;
}

async function listLibrary(context: ApiContext) {
  const search = parseWith(ZSavedQuerySearch, Object.fromEntries([...context.req.query].filter(([, value]) => value !== "")), "query parameters");
  const all = await listSavedQueries(await getDashboardDb(), context.plant!.id);
  return json({ data: all.filter((query) => matchesSearch(query, search)).map((query) => withRights(context, query)) }, 200, { "cache-control": "private, no-cache" });
}

async function createLibraryQuery(context: ApiContext) {
  const body = savedQueryBody(context);
  const db = await getDashboardDb();
  if ((await countSavedQueries(db, context.plant!.id)) >= DASHBOARD_LIMITS.maxSavedQueries) {
    throw invalidInput(`A plant's library holds at most ${DASHBOARD_LIMITS.maxSavedQueries} queries; delete one first.`, [{ field: "(body)", problem: "library full" }]);
  }
  const created = await createSavedQuery(db, context.plant!.id, body, context.user.email);
  context.audit.target = String(created.id);
  return json(withRights(context, created), 201);
}

async function replaceLibraryQuery(context: ApiContext) {
  const body = savedQueryBody(context);
  const found = await editableSavedQuery(context);
  const saved = await replaceSavedQuery(await getDashboardDb(), context.plant!.id, found.id, body, context.user.email);
  if (!saved) throw new ApiError("NOT_FOUND", `No saved query ${found.id} at plant ${context.plant!.id}: it may have been deleted.`);
  return json(withRights(context, saved));
}

async function deleteLibraryQuery(context: ApiContext) {
  const found = await editableSavedQuery(context);
  context.audit.detail = { title: found.title.slice(0, 100) };
  await deleteSavedQuery(await getDashboardDb(), context.plant!.id, found.id);
  return json({ id: found.id, deleted: true });
}

async function runLibraryQuery(context: ApiContext) {
  const found = await savedQuery(context);
  const marked = await markSavedQueryRun(await getDashboardDb(), context.plant!.id, found.id, context.user.email);
  return json(withRights(context, marked ?? found));
}

/** Reading and using the library is for everyone who queries telemetry; saving too (owner and admins change). */
export const workspaceRoutes: Record<WorkspaceRouteId, { permission: Permission; auditAction?: string; run: ApiRouteSpec["run"] }> = {
  placeDashboard: { permission: "dashboards:write", auditAction: "dashboard.place", run: place },
  createBoardFolder: { permission: "dashboards:write", auditAction: "dashboard-folder.create", run: createBoardFolder },
  renameBoardFolder: { permission: "dashboards:write", auditAction: "dashboard-folder.rename", run: renameBoardFolder },
  deleteBoardFolder: { permission: "dashboards:write", auditAction: "dashboard-folder.delete", run: deleteBoardFolder },
  listSavedQueries: { permission: "telemetry:query", run: listLibrary },
  createSavedQuery: { permission: "telemetry:query", auditAction: "saved-query.create", run: createLibraryQuery },
  getSavedQuery: { permission: "telemetry:query", run: async (context) => json(withRights(context, await savedQuery(context)), 200, { "cache-control": "private, no-cache" }) },
  replaceSavedQuery: { permission: "telemetry:query", auditAction: "saved-query.update", run: replaceLibraryQuery },
  deleteSavedQuery: { permission: "telemetry:query", auditAction: "saved-query.delete", run: deleteLibraryQuery },
  // Not audited: it only says when the query was last taken from the library.
  runSavedQuery: { permission: "telemetry:query", run: runLibraryQuery },
};
