/**
 * The audit log's retention (AUDIT_RETENTION_DAYS, README "Configuration"): the server prunes rows
 * older than that at start and every hour, so the log stays bounded whatever is recorded. Every
 * instance may run it; a delete of rows another instance already deleted deletes nothing.
 */
import { pruneAudit } from "./audit";
import { getDashboardDb } from "./database";

const PRUNE_EVERY_MS = 3_600_000;

export function startAuditRetention(retentionDays: number, log: (line: string) => void = console.log): { stop(): void } {
  const prune = async () => {
    try {
      const removed = await pruneAudit(await getDashboardDb(), retentionDays);
      if (removed > 0) log(`[audit] pruned ${removed} entries older than ${retentionDays} days (AUDIT_RETENTION_DAYS)`);
    } catch (error) {
      log(`[audit] pruning the audit log failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void prune();
  const timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
