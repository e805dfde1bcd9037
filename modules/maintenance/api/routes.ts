import "server-only";
/**
 * Maintenance's `/api/` routes: the service's operations one to one (MAINTENANCE_OPERATIONS), below
 * `/api/plants/{plantId}` instead of `/maintenance/v1/plants/{plantId}`, each with what the dashboard
 * adds (who the write is done for, the attempt key, checks, the audit row's target, notifications);
 * lib/bff/routes.ts serves them in its one table. docs/architecture.md shows the path of a request.
 */
import { randomUUID } from "node:crypto";
import { canReachPlant, hasPermission } from "@/lib/contract/roles";
import { API_PLANT_BASE } from "@/lib/contract/api";
import { forbidden, invalidInput } from "@/lib/contract/errors";
import { MAINTENANCE_OPERATIONS, type MaintenanceOperation, type MaintenanceOperationId, type TPerson, type TTask } from "@/modules/maintenance/contract/maintenance";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { findUser, listUsers, type DashboardUser } from "@/lib/dashboard-store/users";
import { readJsonBody } from "@/lib/platform/http/body";
import { conditionalGet } from "@/lib/platform/http/conditional";
import { json } from "@/lib/platform/http/respond";
import type { Route } from "@/lib/platform/http/router";
import { answer, apiRoute, type ApiContext, type ApiRouteSpec } from "@/lib/api-handler/handler";
import { notifyAssigned, notifyRequest, notifyTransition } from "@/modules/notifications/service/notify";

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{1,100}$/;

/** A few non-secret, bounded fields of a write's body for its audit row. */
function pick(body: unknown, fields: readonly string[]): Record<string, unknown> | null {
  if (typeof body !== "object" || body === null) return null;
  const source = body as Record<string, unknown>;
  const detail: Record<string, unknown> = {};
  for (const field of fields) {
    const value =
      field === "assetTagNumber"
        ? ((source.asset as { tagNumber?: unknown } | undefined)?.tagNumber ?? source.assetTagNumber)
        : field === "assigneeUsername"
          ? (source.assignee as { username?: unknown } | null | undefined)?.username
          : source[field];
    if (typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && value.length <= 100)) detail[field] = value;
  }
  return detail;
}

/**
 * What the dashboard adds to an operation of the contract's table (permission and audit are in
 * MAINTENANCE_OPERATIONS): who the write is done for, the browser's attempt key, checks and
 * rewrites of the body before the call, and the audit row's target.
 */
interface MaintenanceHooks {
  /** The service keeps the write with whom it was done for (`by`): task history, stock history. */
  attributed?: true;
  /** A retried click must not repeat: the browser may name its attempt. */
  keyed?: true;
  /** Runs before the call: may refuse, and returns the body to send. */
  prepare?: (context: ApiContext, plantId: string, params: Record<string, string>, body: unknown) => Promise<unknown>;
  /** The audit row's target, from the answer. */
  auditTarget?: (value: unknown) => string | null;
  /** Runs after the write succeeded, with the body sent and the answer (the notification centre hears of it). */
  after?: (context: ApiContext, plantId: string, params: Record<string, string>, body: unknown, value: unknown) => Promise<void>;
}

/** The first row of a write result's `data` (`[{ id, from?, to? }]`). */
function written(value: unknown): { id?: unknown; from?: unknown; to?: unknown } {
  return (value as { data?: { id?: unknown }[] } | null)?.data?.[0] ?? {};
}

const MAINTENANCE_HOOKS: Partial<Record<MaintenanceOperationId, MaintenanceHooks>> = {
  createTask: {
    attributed: true,
    keyed: true,
    auditTarget: (value) => {
      const created = (value as { data: { id?: unknown }[] }).data[0]?.id;
      return typeof created === "string" ? created : null;
    },
    // Every new task is a work request waiting for a supervisor's approval.
    async after(context, plantId, _params, body, value) {
      const id = written(value).id;
      const title = (body as { taskTitle?: unknown } | null)?.taskTitle;
      if (typeof id === "string") await notifyRequest(await getDashboardDb(), plantId, id, typeof title === "string" ? title : "", context.user.email);
    },
  },
  transitionTask: {
    attributed: true,
    async after(context, plantId, _params, _body, value) {
      const move = written(value);
      if (typeof move.id === "string" && typeof move.to === "string") {
        await notifyTransition(await getDashboardDb(), plantId, { id: move.id, from: typeof move.from === "string" ? move.from : null, to: move.to }, context.user.email);
      }
    },
  },
  updateTask: {
    attributed: true,
    prepare: (_context, plantId, _params, body) => resolvePerson(body, plantId, "assignee"),
    async after(context, plantId, params, body) {
      const assignee = (body as { assignee?: { username?: unknown } | null } | null)?.assignee?.username;
      if (typeof assignee === "string" && params.taskId) await notifyAssigned(await getDashboardDb(), plantId, params.taskId, assignee, context.user.email);
    },
  },
  closeOutTask: {
    attributed: true,
    keyed: true,
    async prepare(context, plantId, params, body) {
      await checkCloseOutAllowed(context, plantId, params.taskId!);
      return resolvePerson(body, plantId, "carriedOutBy");
    },
  },
  submitStockLevel: { attributed: true },
  uploadTaskAttachment: {
    async prepare(context, plantId, params, body) {
      await checkAttachAllowed(context, plantId, params.taskId!);
      return body;
    },
    auditTarget: (value) => (value as { id?: unknown } | null)?.id as string | null,
  },
};

/** A dashboard user as the service records a person: the e-mail is the username, the name split once. */
function personOf(user: Pick<DashboardUser, "name" | "email">): TPerson {
  const name = user.name.replace(/\p{Cc}/gu, " ").trim().slice(0, 200);
  const space = name.indexOf(" ");
  return space < 0 ? { username: user.email, firstname: name, lastname: "" } : { username: user.email, firstname: name.slice(0, space), lastname: name.slice(space + 1) };
}

/**
 * A task's assignee must be a user who can open the plant: the browser names them by username
 * (e-mail), and the name recorded is the one this dashboard knows, whatever else was sent.
 */
async function resolvePerson(body: unknown, plantId: string, field: "assignee" | "carriedOutBy"): Promise<unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const sent = (body as Record<string, unknown>)[field];
  if (sent === undefined || sent === null) return body;
  const username = typeof sent === "object" && typeof (sent as { username?: unknown }).username === "string" ? (sent as { username: string }).username : null;
  const user = username && username.length <= 320 ? await findUser(await getDashboardDb(), username) : null;
  if (!user || user.disabled || !canReachPlant(user.role, user.plants, plantId)) {
    throw invalidInput(`${field}: not a user of plant ${plantId}.`, [{ field, problem: `not an active user with access to plant ${plantId}` }]);
  }
  return { ...body, [field]: personOf(user) };
}

/** Supervisors (tasks:close-out) close out any task; anyone else only a task assigned to them. */
async function checkCloseOutAllowed(context: ApiContext, plantId: string, taskId: string): Promise<void> {
  if (hasPermission(context.user.role, "tasks:close-out")) return;
  const task = (await context.upstream.maintenance("getTask", { plantId, params: { taskId }, signal: context.req.signal })).value as TTask;
  if (task.assignee?.username !== context.user.email) {
    throw forbidden("Only the person the task is assigned to, or a supervisor, may close it out.");
  }
}

/** Whoever may edit a task (planners, supervisors, admins) or close it out (supervisors, its assignee) may attach files to it. */
async function checkAttachAllowed(context: ApiContext, plantId: string, taskId: string): Promise<void> {
  if (hasPermission(context.user.role, "tasks:edit") || hasPermission(context.user.role, "tasks:close-out")) return;
  const task = (await context.upstream.maintenance("getTask", { plantId, params: { taskId }, signal: context.req.signal })).value as TTask;
  if (task.assignee?.username !== context.user.email) {
    throw forbidden("Only those who may edit or close out the task may attach files to it.");
  }
}

/**
 * The signed-in user as the task history names them: `Name <e-mail>` (a name alone is not unique).
 * Set here, over anything the browser sent: nobody can act in someone else's name. Control
 * characters go and the name is cut short, so the service's bounds (ZActingFor) always hold.
 */
function actingFor(user: Pick<DashboardUser, "name" | "email">): string {
  const name = user.name.replace(/\p{Cc}/gu, " ").trim().slice(0, 60);
  return name && name !== user.email ? `${name} <${user.email}>` : user.email;
}

function attributed(body: unknown, user: DashboardUser): unknown {
  // Anything but an object is left for the service to refuse with its own message.
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return { ...body, by: actingFor(user) };
}

/** The browser may name its attempt (a retried click then creates one task); scoped to the user, so two users' keys never meet. */
function idempotencyKey(context: ApiContext): string {
  const offered = context.req.headers["idempotency-key"];
  if (offered !== undefined && !IDEMPOTENCY_KEY.test(offered)) {
    throw invalidInput("Idempotency-Key must be 1–100 letters, digits, '_' or '-'.", [{ field: "Idempotency-Key", problem: "malformed" }]);
  }
  return `u${context.user.id}-${offered ?? randomUUID()}`;
}

function maintenanceRoute(id: MaintenanceOperationId): Route {
  const operation: MaintenanceOperation = MAINTENANCE_OPERATIONS[id];
  const hooks = MAINTENANCE_HOOKS[id] ?? {};
  return {
    method: operation.method,
    pattern: API_PLANT_BASE + operation.path,
    maxBodyBytes: operation.rawBody?.maxBytes,
    handler: apiRoute({
      permission: operation.permission,
      auditAction: operation.audit?.action,
      async run(context) {
        const { plantId, ...params } = context.params;
        const sent = operation.body ? readJsonBody(context.req) : undefined;
        const prepared = hooks.prepare ? await hooks.prepare(context, plantId!, params, sent) : sent;
        const body = hooks.attributed ? attributed(prepared, context.user) : prepared;
        // A file is passed on as it came; its audit row names it by its name, type and size.
        const file = operation.rawBody ? { bytes: context.req.body, contentType: context.req.headers["content-type"], tooLarge: context.req.bodyTooLarge ?? false } : undefined;
        if (operation.audit) {
          context.audit.detail = pick(file ? { name: context.req.query.get("filename"), contentType: file.contentType, size: file.bytes?.byteLength ?? null } : body, operation.audit.fields ?? []);
        }
        const result = await context.upstream.maintenance(id, {
          plantId: plantId!,
          params,
          query: context.req.query,
          body,
          file,
          idempotencyKey: hooks.keyed ? idempotencyKey(context) : undefined,
          signal: context.req.signal,
        });
        if (hooks.auditTarget) context.audit.target = hooks.auditTarget(result.value);
        if (hooks.after) await hooks.after(context, plantId!, params, body, result.value);
        if (result.bytes) return { status: 200, headers: result.headers, body: [result.bytes] };
        // A read carries its ETag: the browser's polling (the task board) revalidates with
        // If-None-Match and gets 304 while nothing changed.
        return operation.method === "GET" ? conditionalGet(context.req, answer(result)) : answer(result);
      },
    }),
  };
}

/** The people a task of this plant can be assigned to: active users who can open it, by name (bounded). */
export const plantPeople: ApiRouteSpec["run"] = async ({ plant }) => {
  const users = await listUsers(await getDashboardDb());
  const data = users
    .filter((user) => !user.disabled && canReachPlant(user.role, user.plants, plant!.id))
    .slice(0, 1000)
    .map((user) => ({ username: user.email, name: user.name || user.email, role: user.role }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return json({ data }, 200, { "cache-control": "private, max-age=60" });
};

/** One route per operation of the contract's table. */
export const maintenanceRoutes: readonly Route[] = (Object.keys(MAINTENANCE_OPERATIONS) as MaintenanceOperationId[]).map(maintenanceRoute);
