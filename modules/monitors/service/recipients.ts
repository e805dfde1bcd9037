/**
 * Who a monitor may e-mail (issue 35 #3, docs/api.md "Monitors"): users of the monitor's plant
 * (enabled, with the plant or every plant), or addresses in an allowed domain, NOTIFY_EMAIL_DOMAINS
 * or, unset, the domains of the plant's users. Checked when a monitor is saved (refused with the
 * address named) and again when it sends (a user may have left the plant since; an address stored
 * before the rule is not mailed), so no engineer can make the server e-mail the outside world.
 */
import { ApiError } from "@/lib/contract/errors";
import { listUsers } from "@/lib/dashboard-store/users";
import type { SqlExecutor } from "@/lib/platform/sql";

const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

interface RecipientVerdict {
  allowed: string[];
  refused: string[];
  /** The domains that were allowed, for the refusal's words. */
  domains: string[];
}

/** Splits `emails` into those the plant's monitors may write to and those refused. */
export async function judgeRecipients(db: SqlExecutor, plantId: string, emails: readonly string[], configuredDomains: readonly string[] | null): Promise<RecipientVerdict> {
  if (emails.length === 0) return { allowed: [], refused: [], domains: [] };
  const users = (await listUsers(db)).filter((user) => !user.disabled && (user.plants === "*" || user.plants.includes(plantId)));
  const members = new Set(users.map((user) => user.email.toLowerCase()));
  const domains = configuredDomains ? [...configuredDomains] : [...new Set(users.map((user) => domainOf(user.email)))].sort();
  const allowedDomains = new Set(domains);
  const allowed: string[] = [];
  const refused: string[] = [];
  for (const email of emails) (members.has(email.toLowerCase()) || allowedDomains.has(domainOf(email)) ? allowed : refused).push(email);
  return { allowed, refused, domains };
}

/** Addresses added and removed between two recipient lists (case-insensitive), for the audit log. */
export function recipientChanges(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  const had = new Set(before.map((e) => e.toLowerCase()));
  const has = new Set(after.map((e) => e.toLowerCase()));
  return { added: after.filter((e) => !had.has(e.toLowerCase())), removed: before.filter((e) => !has.has(e.toLowerCase())) };
}

/**
 * Refuses a save whose recipients are not all allowed: 400 INVALID_INPUT naming the addresses, one
 * `data` entry per address under `field` (`notify.emails` of a monitor, `emails` of a contact point).
 */
export async function requireAllowedRecipients(db: SqlExecutor, plantId: string, emails: readonly string[], configuredDomains: readonly string[] | null, field: string): Promise<void> {
  const verdict = await judgeRecipients(db, plantId, emails, configuredDomains);
  if (verdict.refused.length === 0) return;
  const where = verdict.domains.length > 0 ? `users of plant ${plantId} or addresses in ${verdict.domains.join(", ")}` : `users of plant ${plantId}`;
  const named = `${verdict.refused.slice(0, 5).join(", ")}${verdict.refused.length > 5 ? ` and ${verdict.refused.length - 5} more` : ""}`;
  throw new ApiError(
    "INVALID_INPUT",
    `Notifications may e-mail only ${where}: ${named} ${verdict.refused.length === 1 ? "is" : "are"} neither.`,
    verdict.refused.map((email) => ({ field, problem: `${email} is not a user of the plant nor in an allowed domain` })),
  );
}

/** A note for the notification's error: who was not mailed, or null. */
export function refusedNote(refused: readonly string[]): string | null {
  return refused.length > 0 ? `e-mail: not sent to ${refused.join(", ")} (not a user of the plant nor in an allowed domain)` : null;
}
