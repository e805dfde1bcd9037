/**
 * Where a plant's monitor messages go (docs/api.md, "Contact points and routing"): contact points
 * (an e-mail list and/or a webhook) and the plant's routing policy — rules matched in order on the
 * monitor's severity and the firing's asset, the first match wins, else the default contact point —
 * and how long firings bound for one contact point wait to be sent together as one message.
 * No server-only import: the routing page validates with these too, and `routeFor` is the one rule.
 */
import { z } from "@/lib/contract/zod";
import { ZId } from "@/lib/contract/common";
import { MONITOR_SEVERITIES, type TMonitorSeverity } from "./mute-windows";

export const ROUTING_LIMITS = {
  contactPointsPerPlant: 50,
  emailsPerContactPoint: 20,
  rules: 50,
  assetsPerRule: 50,
  /** How long a message waits for more firings bound for the same contact point. */
  maxGroupSeconds: 600,
  defaultGroupSeconds: 30,
  /** Lines one grouped message lists; the rest are counted. */
  listedLines: 50,
} as const;

/** Body of POST and PUT …/contact-points[/{contactPointId}]. */
export const ZContactPointInput = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters"),
    emails: z.array(z.email("must be an e-mail address").max(254)).max(ROUTING_LIMITS.emailsPerContactPoint).default([]),
    webhookUrl: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .max(2000)
      .nullish()
      .meta({ description: "Slack/Mattermost/Teams incoming webhook; set by admins only. Omitted on PUT: kept; null: removed." }),
  })
  .meta({ id: "ContactPointInput" });

export const ZContactPoint = z
  .object({
    id: z.number().int(),
    plantId: z.string(),
    name: z.string(),
    emails: z.array(z.string()),
    /** Shown to admins only; others see `webhookConfigured`. */
    webhookUrl: z.string().nullable().optional(),
    webhookConfigured: z.boolean(),
    lastSentAt: z.string().nullable(),
    /** Why the last message did not go out (null when it did). */
    lastError: z.string().nullable(),
    updatedBy: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "ContactPoint" });

const ZRoutingRule = z.object({
  /** Severities this rule takes; empty: any. */
  severities: z.array(z.enum(MONITOR_SEVERITIES)).max(MONITOR_SEVERITIES.length).default([]),
  /** Asset tag numbers this rule takes (the firing's asset); empty: any. */
  assetTags: z.array(ZId).max(ROUTING_LIMITS.assetsPerRule).default([]),
  contactPointId: z.number().int().positive(),
});

/** Body and answer of GET/PUT …/notification-policy. */
export const ZNotificationPolicy = z
  .object({
    rules: z.array(ZRoutingRule).max(ROUTING_LIMITS.rules).default([]),
    /** Where a firing no rule takes goes; null: nowhere (only the monitor's own e-mails and webhook). */
    defaultContactPointId: z.number().int().positive().nullable().default(null),
    groupSeconds: z.number().int().min(0).max(ROUTING_LIMITS.maxGroupSeconds).default(ROUTING_LIMITS.defaultGroupSeconds),
  })
  .meta({ id: "NotificationPolicy" });

export type TContactPointInput = z.output<typeof ZContactPointInput>;
export type TContactPoint = z.infer<typeof ZContactPoint>;
export type TNotificationPolicy = z.output<typeof ZNotificationPolicy>;

export const DEFAULT_POLICY: TNotificationPolicy = { rules: [], defaultContactPointId: null, groupSeconds: ROUTING_LIMITS.defaultGroupSeconds };

/** The contact point a firing goes to: the first rule whose severities and assets take it, else the default. */
export function routeFor(policy: TNotificationPolicy, severity: TMonitorSeverity, assetTag: string | null): number | null {
  const rule = policy.rules.find(
    (candidate) =>
      (candidate.severities.length === 0 || candidate.severities.includes(severity)) &&
      (candidate.assetTags.length === 0 || (assetTag !== null && candidate.assetTags.includes(assetTag))),
  );
  return rule ? rule.contactPointId : policy.defaultContactPointId;
}
