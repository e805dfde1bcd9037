import "server-only";
/**
 * The `/api/` work of contact points and routing (docs/api.md, "Contact points and routing");
 * lib/bff/routes.ts binds each to its path, permission and audit action. Everyone who may read a
 * plant's monitors sees where they go; engineers and admins change it; only admins set where a
 * webhook goes, and only admins see its URL.
 */
import { hasPermission } from "@/lib/contract/roles";
import { ApiError, forbidden, invalidInput } from "@/lib/contract/errors";
import { ROUTING_LIMITS, ZContactPointInput, ZNotificationPolicy, type TContactPointInput } from "@/modules/monitors/contract/routing";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import {
  contactPointByName,
  countContactPoints,
  createContactPoint,
  deleteContactPoint,
  describeContactPoint,
  getContactPoint,
  getPolicy,
  listContactPoints,
  replaceContactPoint,
  savePolicy,
  type StoredContactPoint,
} from "@/modules/monitors/store/routing";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import type { ApiContext } from "@/lib/api-handler/handler";
import { checkWebhookDestination } from "./routes";
import { requireAllowedRecipients } from "@/modules/monitors/service/recipients";
import { getConfig } from "@/lib/config";

const mayWebhook = (context: ApiContext) => hasPermission(context.user.role, "monitors:webhook");

function contactPointId(context: ApiContext): number {
  const text = context.params.contactPointId ?? "";
  const id = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError("NOT_FOUND", `No contact point ${text.slice(0, 40)} on plant ${context.plant!.id}.`);
  return id;
}

async function existing(context: ApiContext): Promise<StoredContactPoint> {
  const id = contactPointId(context);
  const point = await getContactPoint(await getDashboardDb(), context.plant!.id, id);
  if (!point) throw new ApiError("NOT_FOUND", `No contact point ${id} on plant ${context.plant!.id}.`);
  return point;
}

async function definition(context: ApiContext, stored: StoredContactPoint | null): Promise<TContactPointInput> {
  const input = parseWith(ZContactPointInput, readJsonBody(context.req), "contact point");
  const webhook = input.webhookUrl;
  if (webhook !== undefined && webhook !== (stored?.webhookUrl ?? null) && !mayWebhook(context)) throw forbidden("Only an admin may set a contact point's webhook.");
  if (webhook) await checkWebhookDestination(webhook, "webhookUrl");
  await requireAllowedRecipients(await getDashboardDb(), context.plant!.id, input.emails, getConfig().dashboard.monitors.emailDomains, "emails");
  const same = await contactPointByName(await getDashboardDb(), context.plant!.id, input.name);
  if (same && same.id !== stored?.id) throw invalidInput(`Plant ${context.plant!.id} already has a contact point "${input.name}".`, [{ field: "name", problem: "already used by another contact point" }]);
  context.audit.detail = { name: input.name, emails: input.emails.length, webhook: Boolean(webhook ?? stored?.webhookUrl) };
  return input;
}

export const routingHandlers = {
  async list(context: ApiContext) {
    const points = await listContactPoints(await getDashboardDb(), context.plant!.id);
    return json({ data: points.map((point) => describeContactPoint(point, mayWebhook(context))) });
  },

  async create(context: ApiContext) {
    const input = await definition(context, null);
    const db = await getDashboardDb();
    if ((await countContactPoints(db, context.plant!.id)) >= ROUTING_LIMITS.contactPointsPerPlant) {
      throw invalidInput(`A plant has at most ${ROUTING_LIMITS.contactPointsPerPlant} contact points; delete one first.`, [{ field: "(body)", problem: "too many contact points" }]);
    }
    const point = await createContactPoint(db, context.plant!.id, input, context.user.email);
    context.audit.target = String(point.id);
    return json(describeContactPoint(point, mayWebhook(context)), 201);
  },

  async replace(context: ApiContext) {
    const stored = await existing(context);
    context.audit.target = String(stored.id);
    const input = await definition(context, stored);
    const point = await replaceContactPoint(await getDashboardDb(), context.plant!.id, stored.id, input, context.user.email);
    if (!point) throw new ApiError("NOT_FOUND", `No contact point ${stored.id} on plant ${context.plant!.id}.`);
    return json(describeContactPoint(point, mayWebhook(context)));
  },

  async remove(context: ApiContext) {
    const id = contactPointId(context);
    context.audit.target = String(id);
    const db = await getDashboardDb();
    const policy = await getPolicy(db, context.plant!.id);
    if (policy.defaultContactPointId === id || policy.rules.some((rule) => rule.contactPointId === id)) {
      throw invalidInput(`Contact point ${id} is used by the plant's routing; change the routing first.`, [{ field: "contactPointId", problem: "used by the routing" }]);
    }
    if (!(await deleteContactPoint(db, context.plant!.id, id))) throw new ApiError("NOT_FOUND", `No contact point ${id} on plant ${context.plant!.id}.`);
    return json({ id, deleted: true });
  },

  async getPolicy(context: ApiContext) {
    return json(await getPolicy(await getDashboardDb(), context.plant!.id));
  },

  async replacePolicy(context: ApiContext) {
    const policy = parseWith(ZNotificationPolicy, readJsonBody(context.req), "notification policy");
    const db = await getDashboardDb();
    const known = new Set((await listContactPoints(db, context.plant!.id)).map((point) => point.id));
    const problems = [
      ...policy.rules.flatMap((rule, index) => (known.has(rule.contactPointId) ? [] : [{ field: `rules.${index}.contactPointId`, problem: `no contact point ${rule.contactPointId} on this plant` }])),
      ...(policy.defaultContactPointId !== null && !known.has(policy.defaultContactPointId)
        ? [{ field: "defaultContactPointId", problem: `no contact point ${policy.defaultContactPointId} on this plant` }]
        : []),
    ];
    if (problems.length > 0) throw invalidInput(`Invalid notification policy: ${problems[0]!.field}: ${problems[0]!.problem}`, problems);
    await savePolicy(db, context.plant!.id, policy, context.user.email);
    context.audit.detail = { rules: policy.rules.length, default: policy.defaultContactPointId, groupSeconds: policy.groupSeconds };
    return json(policy);
  },
};
