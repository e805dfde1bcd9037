import "server-only";
/**
 * The `/api/` work of condition monitoring (docs/api.md, "Monitors"); lib/bff/routes.ts binds each
 * to its path, permission and audit action. Everyone who may read a plant's monitors sees them;
 * engineers and admins write them; only admins set where a webhook goes.
 */
import { hasPermission } from "@/lib/contract/roles";
import { ApiError, forbidden, invalidInput } from "@/lib/contract/errors";
import { MONITOR_LIMITS, ZFiringQuery, ZMonitorInput, ZMonitorPreviewRequest, type TMonitorInput } from "@/modules/monitors/contract/monitors";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import {
  countMonitors,
  createMonitor,
  deleteMonitor,
  describeMonitor,
  getMonitor,
  listFirings,
  listMonitors,
  openFiringCounts,
  replaceMonitor,
  type StoredMonitor,
} from "@/modules/monitors/store/monitors";
import { checkMonitorDefinition, previewMonitor } from "@/modules/monitors/service/evaluate";
import { monitorDeps } from "@/modules/monitors/service";
import { runMonitor } from "@/modules/monitors/service/scheduler";
import { recipientChanges, requireAllowedRecipients } from "@/modules/monitors/service/recipients";
import { recordAudit } from "@/lib/dashboard-store/audit";
import { checkDestination, RefusedDestination } from "@/lib/platform/outbound";
import { getConfig } from "@/lib/config";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import type { ApiContext } from "@/lib/api-handler/handler";

function monitorId(context: ApiContext): number {
  const text = context.params.monitorId ?? "";
  const id = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError("NOT_FOUND", `No monitor ${text.slice(0, 40)} on plant ${context.plant!.id}.`);
  return id;
}

async function existing(context: ApiContext): Promise<StoredMonitor> {
  const id = monitorId(context);
  const monitor = await getMonitor(await getDashboardDb(), context.plant!.id, id);
  if (!monitor) throw new ApiError("NOT_FOUND", `No monitor ${id} on plant ${context.plant!.id}.`);
  return monitor;
}

/**
 * A webhook may go only where the notifier will send it (lib/platform/outbound.ts): a private,
 * loopback, link-local, … destination in any spelling, or a name resolving to one, is refused at
 * save as at send, in words that say nothing about the destination.
 */
export async function checkWebhookDestination(url: string, field = "notify.webhookUrl"): Promise<void> {
  try {
    await checkDestination(url, { allowPrivate: getConfig().dashboard.monitors.allowPrivateWebhooks });
  } catch (error) {
    if (!(error instanceof RefusedDestination)) throw error;
    throw new ApiError("INVALID_INPUT", "The webhook's address is a refused destination: only public addresses may be called.", [{ field, problem: "refused destination" }]);
  }
}

/** E-mail goes only to the plant's users or an allowed domain (recipients.ts); the refusal names the address. */
async function checkRecipients(context: ApiContext, emails: readonly string[]): Promise<void> {
  await requireAllowedRecipients(await getDashboardDb(), context.plant!.id, emails, getConfig().dashboard.monitors.emailDomains, "notify.emails");
}

/**
 * Every change of a monitor's recipients is audited: one row per address added or removed, so a
 * row stays small whatever the list (lib/dashboard-store/audit.ts bounds each row).
 */
async function auditRecipientChanges(context: ApiContext, monitorId: number, before: readonly string[], after: readonly string[], httpStatus: number): Promise<void> {
  const { added, removed } = recipientChanges(before, after);
  const db = await getDashboardDb();
  const changes = [...added.map((email) => ["monitor.recipient-add", email] as const), ...removed.map((email) => ["monitor.recipient-remove", email] as const)];
  for (const [action, email] of changes) {
    await recordAudit(db, { userEmail: context.user.email, plantId: context.plant!.id, action, target: String(monitorId), outcome: "SUCCESS", httpStatus, detail: { email } });
  }
}

const mayWebhook = (context: ApiContext) => hasPermission(context.user.role, "monitors:webhook");

/** A validated definition: schema, compiled query, key columns, and the webhook rules (who, and where to). */
async function definition(context: ApiContext, stored: StoredMonitor | null): Promise<TMonitorInput> {
  const input = parseWith(ZMonitorInput, readJsonBody(context.req), "monitor");
  const webhook = input.notify?.webhookUrl;
  if (webhook !== undefined && webhook !== (stored?.webhookUrl ?? null) && !mayWebhook(context)) {
    throw forbidden("Only an admin may set a monitor's webhook.");
  }
  if (webhook) await checkWebhookDestination(webhook);
  await checkRecipients(context, input.notify?.emails ?? []);
  checkMonitorDefinition(input);
  context.audit.detail = { name: input.name, every: input.every, enabled: input.enabled, keyColumns: input.keyColumns.join(",").slice(0, 100) };
  return input;
}

async function describe(context: ApiContext, monitor: StoredMonitor) {
  const counts = await openFiringCounts(await getDashboardDb(), monitor.plantId);
  return describeMonitor(monitor, counts.get(monitor.id) ?? 0, mayWebhook(context));
}

export const monitorHandlers = {
  async list(context: ApiContext) {
    const db = await getDashboardDb();
    const counts = await openFiringCounts(db, context.plant!.id);
    const monitors = await listMonitors(db, context.plant!.id);
    return json({ data: monitors.map((monitor) => describeMonitor(monitor, counts.get(monitor.id) ?? 0, mayWebhook(context))) });
  },

  async create(context: ApiContext) {
    const input = await definition(context, null);
    const db = await getDashboardDb();
    if ((await countMonitors(db, context.plant!.id)) >= MONITOR_LIMITS.maxPerPlant) {
      throw invalidInput(`A plant has at most ${MONITOR_LIMITS.maxPerPlant} monitors; delete one first.`, [{ field: "(body)", problem: "too many monitors" }]);
    }
    const monitor = await createMonitor(db, context.plant!.id, input, context.user.email);
    context.audit.target = String(monitor.id);
    await auditRecipientChanges(context, monitor.id, [], monitor.emails, 201);
    return json(await describe(context, monitor), 201);
  },

  async get(context: ApiContext) {
    return json(await describe(context, await existing(context)));
  },

  async replace(context: ApiContext) {
    const stored = await existing(context);
    context.audit.target = String(stored.id);
    const input = await definition(context, stored);
    const monitor = await replaceMonitor(await getDashboardDb(), context.plant!.id, stored.id, input, Date.now(), context.user.email);
    if (!monitor) throw new ApiError("NOT_FOUND", `No monitor ${stored.id} on plant ${context.plant!.id}.`);
    await auditRecipientChanges(context, monitor.id, stored.emails, monitor.emails, 200);
    return json(await describe(context, monitor));
  },

  async remove(context: ApiContext) {
    const id = monitorId(context);
    context.audit.target = String(id);
    const stored = await getMonitor(await getDashboardDb(), context.plant!.id, id);
    if (!(await deleteMonitor(await getDashboardDb(), context.plant!.id, id))) throw new ApiError("NOT_FOUND", `No monitor ${id} on plant ${context.plant!.id}.`);
    await auditRecipientChanges(context, id, stored?.emails ?? [], [], 200);
    return json({ id, deleted: true });
  },

  async run(context: ApiContext) {
    const monitor = await existing(context);
    context.audit.target = String(monitor.id);
    const evaluation = await runMonitor(await monitorDeps(), monitor, Date.now());
    context.audit.detail = { opened: evaluation.opened, resolved: evaluation.resolved, ...(evaluation.muted ? { muted: true } : {}) };
    return json({ evaluatedAt: evaluation.evaluatedAt, firings: evaluation.firings, ...(evaluation.muted ? { muted: true } : {}) });
  },

  async firings(context: ApiContext) {
    const monitor = await existing(context);
    return json({ data: await listFirings(await getDashboardDb(), monitor.plantId, { monitorId: monitor.id }) });
  },

  async plantFirings(context: ApiContext) {
    const filter = parseWith(ZFiringQuery, Object.fromEntries(context.req.query), "query parameters");
    return json({ data: await listFirings(await getDashboardDb(), context.plant!.id, { assetTag: filter.assetTagNumber, taskId: filter.taskId }, 200) });
  },

  async preview(context: ApiContext) {
    const request = parseWith(ZMonitorPreviewRequest, readJsonBody(context.req), "preview");
    // A budget of the user's previews, apart from their explorer's: replaying up to 200 evaluations
    // must not leave the engineer locked out of the explorer for the rest of the minute.
    return json(await previewMonitor(await monitorDeps(), context.plant!.id, request, `preview-${context.user.id}`));
  },
};
