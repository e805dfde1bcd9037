import "server-only";
/**
 * A monitor's notifications: one message per evaluation that opened or resolved firings (never one
 * per row), by e-mail over SMTP (`SMTP_URL`, nodemailer) and as a webhook POST whose JSON carries a
 * `text` field, which Slack, Mattermost and Teams workflows render. Outbound calls are bounded:
 * time limits, no redirects, the answer read to at most WEBHOOK_ANSWER_BYTES. What fails is
 * returned as a sentence without the address (a webhook URL is a credential of the chat workspace).
 */
import nodemailer from "nodemailer";
import { checkDestination, postJsonTo, RefusedDestination, type DestinationPolicy } from "@/lib/platform/outbound";
import type { StoredMonitor } from "@/modules/monitors/store/monitors";
import { valueText } from "../contract/template";
import { SEVERITY_LABEL } from "../contract/mute-windows";
import type { Evaluation } from "./evaluate";
import { monitorLink } from "./evaluate";

const WEBHOOK_TIMEOUT_MS = 5000;
const WEBHOOK_ANSWER_BYTES = 64 * 1024;
/** Firings listed in one message; the rest are counted. */
const LISTED = 20;

export interface NotifierConfig {
  smtpUrl: string | null;
  smtpFrom: string;
  /** WEBHOOK_ALLOW_PRIVATE: webhooks may go to private, loopback, link-local … addresses. */
  allowPrivateWebhooks: boolean;
  /** NOTIFY_EMAIL_DOMAINS; null or absent: the domains of the plant's users (recipients.ts). */
  emailDomains?: string[] | null;
}

export interface MonitorMessage {
  subject: string;
  text: string;
}

/** Slack's mrkdwn (and Mattermost's) read `<…>` as links and `&` as an entity: written as text. */
function chatSafe(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function keyLine(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([name, value]) => `${name}=${valueText(value)}`)
    .join(", ");
}

function describeEvaluation(monitor: Pick<StoredMonitor, "id" | "name" | "plantId"> & Partial<Pick<StoredMonitor, "severity">>, evaluation: Evaluation): MonitorMessage {
  const opened = evaluation.firings.filter((firing) => firing.state === "opened");
  const resolved = evaluation.firings.filter((firing) => firing.state === "resolved");
  const counts = [opened.length ? `${opened.length} opened` : null, resolved.length ? `${resolved.length} resolved` : null].filter(Boolean).join(", ");
  const lines = [
    `Monitor "${monitor.name}" on ${monitor.plantId}: ${counts} at ${evaluation.evaluatedAt}.`,
    ...opened.slice(0, LISTED).map((firing) => `• opened ${keyLine(firing.key)} → task ${firing.taskId}`),
    ...resolved.slice(0, LISTED).map((firing) => `• resolved ${keyLine(firing.key)}${firing.taskId ? ` (task ${firing.taskId} stays for people to close)` : ""}`),
  ];
  const unlisted = Math.max(0, opened.length - LISTED) + Math.max(0, resolved.length - LISTED);
  if (unlisted > 0) lines.push(`… and ${unlisted} more.`);
  lines.push(monitorLink(monitor));
  const severity = monitor.severity ? `${SEVERITY_LABEL[monitor.severity]} · ` : "";
  if (severity) lines[0] = `${severity}${lines[0]}`;
  return { subject: `[Plantdesk] ${severity}${monitor.plantId} · ${monitor.name}: ${counts}`.replace(/\p{Cc}/gu, " "), text: lines.join("\n") };
}

/**
 * POSTs `{ text }`; null when accepted, else why not (never the URL). A destination the policy
 * refuses (lib/platform/outbound.ts) is never called and says only "refused destination".
 */
export async function postWebhook(url: string, text: string, policy: DestinationPolicy): Promise<string | null> {
  let status: number;
  try {
    const destination = await checkDestination(url, policy);
    status = await postJsonTo(destination, { text: chatSafe(text) }, { timeoutMs: WEBHOOK_TIMEOUT_MS, maxAnswerBytes: WEBHOOK_ANSWER_BYTES });
  } catch (error) {
    if (error instanceof RefusedDestination) return "webhook: refused destination";
    const name = (error as Error).name;
    return name === "TimeoutError" || name === "AbortError" ? `webhook: no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : "webhook: could not be reached";
  }
  if (status >= 300 && status < 400) return `webhook: answered a redirect (${status}), which is not followed`;
  if (status < 200 || status >= 300) return `webhook: answered HTTP ${status}`;
  return null;
}

export async function sendEmail(config: NotifierConfig, to: readonly string[], message: MonitorMessage): Promise<string | null> {
  if (!config.smtpUrl) return "e-mail: SMTP_URL is not configured";
  const transport = nodemailer.createTransport(config.smtpUrl, { connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 10_000 });
  try {
    await transport.sendMail({ from: config.smtpFrom, to: [...to], subject: message.subject, text: message.text });
    return null;
  } catch (error) {
    // nodemailer's messages can name the server's answer, never the URL's password; keep it short anyway.
    const code = (error as { code?: unknown; responseCode?: unknown }).responseCode ?? (error as { code?: unknown }).code;
    return `e-mail: not sent${code ? ` (${String(code)})` : ""}`;
  } finally {
    transport.close();
  }
}

/**
 * Sends an evaluation's one message to the monitor's targets: null when all went out, what failed
 * otherwise, undefined when there was nothing to send.
 */
export async function notifyEvaluation(config: NotifierConfig, monitor: StoredMonitor, evaluation: Evaluation): Promise<string | null | undefined> {
  // A mute window sends nothing (its firings are recorded; docs/api.md, "Monitors").
  if (evaluation.muted || (evaluation.opened === 0 && evaluation.resolved === 0)) return undefined;
  if (monitor.emails.length === 0 && !monitor.webhookUrl) return undefined;
  const message = describeEvaluation(monitor, evaluation);
  const problems = await Promise.all([
    monitor.emails.length > 0 ? sendEmail(config, monitor.emails, message) : null,
    monitor.webhookUrl ? postWebhook(monitor.webhookUrl, message.text, { allowPrivate: config.allowPrivateWebhooks }) : null,
  ]);
  const failed = problems.filter((problem): problem is string => problem !== null);
  return failed.length > 0 ? failed.join("; ") : null;
}
