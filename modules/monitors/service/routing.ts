import "server-only";
/**
 * Routing a monitor's firings to the plant's contact points (docs/api.md, "Contact points and
 * routing"): each opened or resolved firing of an evaluation goes to the contact point of the first
 * rule that takes its severity and asset (else the policy's default) as one line in the outbox; a
 * muted evaluation queues nothing (its firings are recorded all the same). `flushNotifications`
 * sends each contact point's due group as ONE message (e-mail and/or webhook), however many
 * monitors and firings it holds, the way Grafana groups alerts.
 */
import { randomUUID } from "node:crypto";
import type { SqlDb } from "@/lib/platform/sql";
import { ROUTING_LIMITS, routeFor } from "@/modules/monitors/contract/routing";
import { SEVERITY_LABEL, type TMonitorSeverity } from "@/modules/monitors/contract/mute-windows";
import { valueText } from "@/modules/monitors/contract/template";
import type { StoredMonitor } from "@/modules/monitors/store/monitors";
import { claimGroup, dueContactPoints, enqueueLine, getContactPoint, getPolicy, recordGroup, type ClaimedLine } from "@/modules/monitors/store/routing";
import type { Evaluation } from "./evaluate";
import { postWebhook, sendEmail, type MonitorMessage, type NotifierConfig } from "./notify";
import { judgeRecipients, refusedNote } from "./recipients";

/** Sent lines are kept this long (what was sent, for a contact point's history), then deleted. */
const KEEP_SENT_MS = 7 * 86_400_000;
/** Groups sent per flush; the rest go at the next one. */
const GROUPS_PER_FLUSH = 100;

const SEVERITY_ORDER: readonly TMonitorSeverity[] = ["critical", "warning", "info"];

function keyLine(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([name, value]) => `${name}=${valueText(value)}`)
    .join(", ");
}

/** Queues the evaluation's opened and resolved firings for their contact points; returns how many lines. */
export async function routeEvaluation(db: SqlDb, monitor: StoredMonitor, evaluation: Evaluation, now: number): Promise<number> {
  if (evaluation.muted) return 0;
  const changes = evaluation.firings.filter((firing) => firing.state === "opened" || firing.state === "resolved");
  if (changes.length === 0) return 0;
  const policy = await getPolicy(db, monitor.plantId);
  let queued = 0;
  for (const firing of changes) {
    const asset = firing.assetTagNumber ?? monitor.task.assetTagNumber ?? null;
    const contactPointId = routeFor(policy, monitor.severity, asset);
    if (contactPointId === null) continue;
    const what = firing.state === "opened" ? `opened ${keyLine(firing.key)}${firing.taskId ? ` → task ${firing.taskId}` : ""}` : `resolved ${keyLine(firing.key)}`;
    const line = `${SEVERITY_LABEL[monitor.severity]} · "${monitor.name.replace(/\p{Cc}/gu, " ")}" (#${monitor.id})${asset ? ` on ${asset}` : ""}: ${what} at ${evaluation.evaluatedAt}`;
    await enqueueLine(db, { plantId: monitor.plantId, contactPointId, monitorId: monitor.id, severity: monitor.severity, line: line.slice(0, 1000) }, policy.groupSeconds * 1000, now);
    queued += 1;
  }
  return queued;
}

/** One message for a contact point's group: the worst severity first in the subject, every line (up to a bound) in the text. */
function describeGroup(plantId: string, contactPointName: string, lines: readonly ClaimedLine[]): MonitorMessage {
  const worst = SEVERITY_ORDER.find((severity) => lines.some((line) => line.severity === severity)) ?? "info";
  const monitors = new Set(lines.map((line) => line.monitorId)).size;
  const summary = `${lines.length} firing change${lines.length === 1 ? "" : "s"} from ${monitors} monitor${monitors === 1 ? "" : "s"}`;
  const listed = lines.slice(0, ROUTING_LIMITS.listedLines).map((line) => `• ${line.line}`);
  const rest = lines.length - listed.length;
  const text = [`${SEVERITY_LABEL[worst]} · ${plantId} → ${contactPointName}: ${summary}.`, ...listed, ...(rest > 0 ? [`… and ${rest} more.`] : [])].join("\n");
  return { subject: `[Plantdesk] ${SEVERITY_LABEL[worst]} · ${plantId}: ${summary}`.replace(/\p{Cc}/gu, " "), text };
}

/**
 * Sends every due group: one message per contact point, to its e-mail list and its webhook; the
 * outcome is recorded on the contact point. Returns how many messages were attempted.
 */
export async function flushNotifications(deps: { db: SqlDb; notifier: NotifierConfig }, now: number): Promise<number> {
  let sent = 0;
  for (const due of await dueContactPoints(deps.db, now, GROUPS_PER_FLUSH)) {
    const batch = randomUUID();
    const lines = await claimGroup(deps.db, due.contactPointId, batch);
    const point = await getContactPoint(deps.db, due.plantId, due.contactPointId);
    let error: string | null = null;
    if (point && lines.length > 0) {
      const message = describeGroup(due.plantId, point.name, lines);
      // Recipients are judged at send as at save (recipients.ts): a user may have left the plant.
      const recipients = await judgeRecipients(deps.db, due.plantId, point.emails, deps.notifier.emailDomains ?? null);
      const problems = await Promise.all([
        recipients.allowed.length > 0 ? sendEmail(deps.notifier, recipients.allowed, message) : null,
        refusedNote(recipients.refused),
        point.webhookUrl ? postWebhook(point.webhookUrl, message.text, { allowPrivate: deps.notifier.allowPrivateWebhooks }) : null,
      ]);
      error = problems.filter((problem): problem is string => problem !== null).join("; ") || null;
      sent += 1;
    }
    await recordGroup(deps.db, due.contactPointId, batch, error, now, KEEP_SENT_MS);
  }
  return sent;
}
