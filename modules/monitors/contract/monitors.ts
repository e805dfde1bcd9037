/**
 * Payloads of condition monitoring (docs/api.md, "Monitors"): a monitor is a KQL query on a
 * schedule whose result rows are firings, each opening one maintenance task from a template.
 * No server-only import: the monitor editor validates with these too.
 */
import { z } from "@/lib/contract/zod";
import { ZId } from "@/lib/contract/common";
import { MAX_QUERY_LENGTH } from "@/lib/contract/telemetry";
import { MONITOR_LIMITS, timespanMs } from "./limits";

import { clockMinutes, MONITOR_SEVERITIES, MUTE_LIMITS, WEEK_DAYS } from "./mute-windows";

export { MONITOR_LIMITS, timespanMs } from "./limits";

const ZInstant = z.iso.datetime({ offset: false, error: "must be an ISO 8601 UTC timestamp ending in Z" });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A time when a monitor opens and sends nothing (its firings are still recorded): one-off, or weekly. */
const ZMuteWindow = z
  .discriminatedUnion("kind", [
    z
      .object({ kind: z.literal("once"), from: ZInstant, to: ZInstant, reason: z.string().max(MUTE_LIMITS.maxReason).nullish() })
      .refine((value) => Date.parse(value.from) < Date.parse(value.to), { path: ["to"], message: "must be after from" }),
    z.object({
      kind: z.literal("weekly"),
      days: z.array(z.enum(WEEK_DAYS)).min(1, "choose at least one day").max(7),
      start: z.string().refine((text) => clockMinutes(text) !== null, "must be a time of day HH:MM"),
      minutes: z.number().int().min(1).max(MUTE_LIMITS.maxWeeklyMinutes),
      timeZone: z.string().max(64).refine(isTimeZone, "must be an IANA time zone such as Europe/Amsterdam"),
      reason: z.string().max(MUTE_LIMITS.maxReason).nullish(),
    }),
  ])
  .meta({ id: "MuteWindow" });

function timespan(min: number, max: number, what: string) {
  return z
    .string()
    .max(20)
    .refine((text) => timespanMs(text) !== null, "must be a timespan such as 30s, 5m, 1h or 2d")
    .refine((text) => (timespanMs(text) ?? 0) >= min, `must be at least ${min / 60_000}m`)
    .refine((text) => (timespanMs(text) ?? 0) <= max, `must be at most ${max / 86_400_000}d`)
    .meta({ description: `Timespan (${what}), e.g. \`5m\`, \`1h\`, \`2d\`.` });
}

const ZColumnName = z.string().min(1).max(128);

const ZQuery = z
  .string({ error: "is required" })
  .refine((text) => text.trim().length > 0, "must not be empty")
  .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`);

const ZKeyColumns = z.array(ZColumnName).min(1, "name at least one column").max(MONITOR_LIMITS.maxKeyColumns);

const ZMonitorTaskTemplate = z
  .object({
    taskTitle: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
    taskDescription: z.string().max(3000, "must be at most 3000 characters").nullish(),
    activityKind: z.string().min(1, "must not be empty").max(100),
    priority: z.string().min(1, "must not be empty").max(100),
    assignedToRole: z.string().min(1, "must not be empty").max(100),
    dueInDays: z.number().int().min(0).max(365),
    assetTagNumber: ZId.nullish().meta({ description: "Omitted: the asset the row's DeviceId measures (its MessageMetadata.topologyReference)." }),
  })
  .meta({ id: "MonitorTaskTemplate", description: "The task a new firing opens; `{Column}` in title and description names a result column." });

const ZMonitorNotify = z
  .object({
    emails: z.array(z.email("must be an e-mail address").max(254)).max(MONITOR_LIMITS.maxEmails).optional(),
    webhookUrl: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .max(2000)
      .nullish()
      .meta({ description: "Slack/Mattermost/Teams incoming webhook; set by admins only. Omitted on PUT: kept; null: removed." }),
  })
  .meta({ id: "MonitorNotify" });

/** Body of POST and PUT /api/plants/{plantId}/monitors[/{id}]. */
export const ZMonitorInput = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters"),
    query: ZQuery,
    keyColumns: ZKeyColumns,
    every: timespan(MONITOR_LIMITS.minEveryMs, MONITOR_LIMITS.maxEveryMs, "how often it runs, at least 1m"),
    lookback: timespan(MONITOR_LIMITS.minLookbackMs, MONITOR_LIMITS.maxLookbackMs, "the window each run queries"),
    task: ZMonitorTaskTemplate,
    notify: ZMonitorNotify.nullish(),
    enabled: z.boolean(),
    /** How bad a firing is; routes its message (critical, warning, info). Omitted: warning. */
    severity: z.enum(MONITOR_SEVERITIES).default("warning"),
    /** When the monitor opens and sends nothing (firings are still recorded). Omitted: none. */
    mutes: z.array(ZMuteWindow).max(MUTE_LIMITS.maxWindows).default([]),
  })
  .meta({ id: "MonitorInput" });

const MONITOR_STATES = ["ok", "firing", "failing", "disabled"] as const;

export const ZMonitor = z
  .object({
    id: z.number().int(),
    plantId: z.string(),
    name: z.string(),
    query: z.string(),
    keyColumns: z.array(z.string()),
    every: z.string(),
    lookback: z.string(),
    task: ZMonitorTaskTemplate,
    notify: z.object({
      emails: z.array(z.string()),
      /** Shown to admins only; others see `webhookConfigured`. */
      webhookUrl: z.string().nullable().optional(),
      webhookConfigured: z.boolean(),
    }),
    enabled: z.boolean(),
    severity: z.enum(MONITOR_SEVERITIES),
    mutes: z.array(ZMuteWindow),
    /** Whether a mute window covers the moment the monitor was read. */
    mutedNow: z.boolean(),
    state: z.enum(MONITOR_STATES),
    openFirings: z.number().int(),
    lastRunAt: z.string().nullable(),
    nextRunAt: z.string().nullable(),
    /** Why the last evaluation failed (null when it did not); kept until one succeeds. */
    lastError: z.string().nullable(),
    consecutiveFailures: z.number().int(),
    lastNotifyError: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Monitor" });

const ZFiringKey = z.record(z.string(), z.unknown());

/** Answer of POST …/monitors/{id}/run. */
export const ZMonitorRun = z.object({
  evaluatedAt: z.string(),
  firings: z.array(
    z.object({
      key: ZFiringKey,
      state: z.enum(["opened", "open", "resolved", "muted"]),
      taskId: z.string().nullable(),
      /** The firing's asset, when known (routing matches on it). */
      assetTagNumber: z.string().nullable().optional(),
    }),
  ),
  /** The mute window that covered the evaluation: firings were recorded, nothing opened or sent. */
  muted: z.boolean().optional(),
});

export const ZFiring = z.object({
  id: z.number().int(),
  monitorId: z.number().int(),
  monitorName: z.string(),
  key: ZFiringKey,
  assetTagNumber: z.string().nullable(),
  openedAt: z.string(),
  resolvedAt: z.string().nullable(),
  taskId: z.string().nullable(),
  /** Why nothing was opened for it (no asset for the device, the service refused the task). */
  problem: z.string().nullable(),
});

/** Query of GET …/monitor-firings (the asset page, a task's drawer). */
export const ZFiringQuery = z.object({
  assetTagNumber: ZId.optional(),
  taskId: ZId.optional(),
});

/** Body of POST /api/plants/{plantId}/monitors/preview: the monitor replayed, opening nothing. */
export const ZMonitorPreviewRequest = z
  .object({
    query: ZQuery,
    keyColumns: ZKeyColumns,
    every: timespan(MONITOR_LIMITS.minEveryMs, MONITOR_LIMITS.maxEveryMs, "step between replayed runs"),
    lookback: timespan(MONITOR_LIMITS.minLookbackMs, MONITOR_LIMITS.maxLookbackMs, "the window each run queries"),
    from: z.iso.datetime({ offset: false, error: "must be an ISO 8601 UTC timestamp ending in Z" }),
    to: z.iso.datetime({ offset: false, error: "must be an ISO 8601 UTC timestamp ending in Z" }),
  })
  .superRefine((value, ctx) => {
    if (!(Date.parse(value.from) < Date.parse(value.to))) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
  });

export const ZMonitorPreview = z.object({
  evaluations: z.number().int(),
  /** Every evaluation time, so a chart can show the quiet ones too. */
  times: z.array(z.string()),
  /** One item per key returned at a replayed evaluation (`new`: not returned by the one before). */
  firings: z.array(z.object({ at: z.string(), key: ZFiringKey, new: z.boolean() })),
});

export type TMonitorInput = z.output<typeof ZMonitorInput>;
/** A MonitorInput as sent (severity and mutes may be left out). */
export type TMonitorInputBody = z.input<typeof ZMonitorInput>;
export type TMonitorTaskTemplate = z.output<typeof ZMonitorTaskTemplate>;
export type TMonitor = z.infer<typeof ZMonitor>;
export type TMonitorRun = z.infer<typeof ZMonitorRun>;
export type TFiring = z.infer<typeof ZFiring>;
export type TMonitorPreviewRequest = z.output<typeof ZMonitorPreviewRequest>;
export type TMonitorPreview = z.infer<typeof ZMonitorPreview>;
export type TMonitorState = (typeof MONITOR_STATES)[number];
export type TMuteWindow = z.output<typeof ZMuteWindow>;
