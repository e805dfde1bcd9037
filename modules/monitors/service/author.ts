import "server-only";
/**
 * A monitor acts as its author (issue 35): each run checks the author's current standing — an
 * enabled user whose role may write monitors and who still reaches the monitor's plant. When that
 * no longer holds the monitor is paused (disabled, with the reason as its last error, shown on the
 * Monitors page) and the pause audited, so it opens no task and sends nothing with rights nobody
 * holds any more. An engineer or admin who saves it takes it over: it then acts as them
 * (replaceMonitor records the new author).
 */
import { canReachPlant, hasPermission } from "@/lib/contract/roles";
import { recordAudit } from "@/lib/dashboard-store/audit";
import { findUser } from "@/lib/dashboard-store/users";
import type { SqlExecutor } from "@/lib/platform/sql";
import type { StoredMonitor } from "@/modules/monitors/store/monitors";

/** Why the author can no longer run the monitor, or null while they can. */
export async function authorProblem(db: SqlExecutor, monitor: Pick<StoredMonitor, "createdBy" | "plantId">): Promise<string | null> {
  const author = await findUser(db, monitor.createdBy);
  if (!author) return "its author is no longer a user";
  if (author.disabled) return "its author is disabled";
  if (!hasPermission(author.role, "monitors:write")) return "its author's role no longer writes monitors";
  if (!canReachPlant(author.role, author.plants, monitor.plantId)) return `its author no longer has plant ${monitor.plantId}`;
  return null;
}

/** Pauses the monitor for `problem` and audits it; returns the sentence the monitor shows. */
export async function pauseForAuthor(db: SqlExecutor, monitor: Pick<StoredMonitor, "id" | "plantId" | "createdBy">, problem: string): Promise<string> {
  const reason = `Paused: ${problem}. An engineer or admin takes it over by saving it.`;
  const { changes } = await db.run("UPDATE monitors SET enabled = 0, last_error = @reason, updated_at = @now WHERE id = @id AND enabled = 1", {
    reason,
    now: new Date().toISOString(),
    id: monitor.id,
  });
  if (changes > 0) {
    await recordAudit(db, { userEmail: "(monitor schedule)", plantId: monitor.plantId, action: "monitor.pause", target: String(monitor.id), outcome: "PAUSED", httpStatus: 403, detail: { author: monitor.createdBy, problem } });
  }
  return reason;
}
