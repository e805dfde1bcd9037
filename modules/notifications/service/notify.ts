import "server-only";
/**
 * Who is told what (docs/api.md, "Notifications"): the producers call these after their write has
 * succeeded. A firing tells every active user of the monitor's plant; a new task (always a work
 * request waiting for approval) and a postponement request tell the plant's approvers (tasks:transition)
 * but not the asker, whose address is kept for the decision; an assignment tells the assignee
 * unless they assigned themselves. Each user's chosen kinds filter what is stored. Telling people is
 * best-effort: a failure is logged, never the write's failure.
 */
import type { SqlDb } from "@/lib/platform/sql";
import { canReachPlant, hasPermission } from "@/lib/contract/roles";
import { listUsers, type DashboardUser } from "@/lib/dashboard-store/users";
import { addNotification, getKinds, recordRequester, requesterOf, type NewNotification } from "@/modules/notifications/store/notifications";

const plantPath = (plantId: string, rest: string) => `/plants/${encodeURIComponent(plantId)}/${rest}`;
const taskLink = (plantId: string, taskId: string) => plantPath(plantId, `tasks?task=${encodeURIComponent(taskId)}`);
const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text).replace(/\p{Cc}/gu, " ");

async function tell(db: SqlDb, emails: Iterable<string>, item: NewNotification, now: number): Promise<number> {
  let told = 0;
  for (const email of new Set(emails)) {
    if (!(await getKinds(db, email)).includes(item.kind)) continue;
    await addNotification(db, email, { ...item, title: clip(item.title, 300) }, now);
    told += 1;
  }
  return told;
}

async function usersOf(db: SqlDb, plantId: string, keep: (user: DashboardUser) => boolean = () => true): Promise<string[]> {
  return (await listUsers(db)).filter((user) => !user.disabled && canReachPlant(user.role, user.plants, plantId) && keep(user)).map((user) => user.email);
}

async function safely(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error(`Notifications (${what}) failed:`, error instanceof Error ? error.message : error);
  }
}

/** A monitor opened work: every active user of its plant who may read monitors. */
export function notifyFiring(db: SqlDb, monitor: { id: number; plantId: string; name: string; severity: string }, opened: number, now = Date.now()): Promise<void> {
  return safely("firing", async () => {
    const recipients = await usersOf(db, monitor.plantId, (user) => hasPermission(user.role, "monitors:read"));
    const title = `${monitor.severity[0]!.toUpperCase()}${monitor.severity.slice(1)}: monitor "${monitor.name}" opened ${opened} task${opened === 1 ? "" : "s"} on ${monitor.plantId}`;
    await tell(db, recipients, { kind: "firing", plantId: monitor.plantId, title, link: plantPath(monitor.plantId, `monitors?monitor=${monitor.id}`) }, now);
  });
}

/** A work request (a new task) waits for approval: the plant's approvers hear, the requester is remembered. */
export function notifyRequest(db: SqlDb, plantId: string, taskId: string, title: string, requester: string, now = Date.now()): Promise<void> {
  return safely("request", async () => {
    await recordRequester(db, plantId, taskId, requester);
    const approvers = await usersOf(db, plantId, (user) => hasPermission(user.role, "tasks:transition") && user.email !== requester);
    await tell(db, approvers, { kind: "approval", plantId, title: `Approval needed: ${taskId} "${title}" (asked by ${requester})`, link: taskLink(plantId, taskId) }, now);
  });
}

/** A task moved: a postponement asked for tells the approvers; a decision on a request tells its requester. */
export function notifyTransition(db: SqlDb, plantId: string, move: { id: string; from: string | null; to: string }, actor: string, now = Date.now()): Promise<void> {
  return safely("transition", async () => {
    if (move.to === "POSTPONEMENT_NEED_APPROVAL") {
      await recordRequester(db, plantId, move.id, actor);
      const approvers = await usersOf(db, plantId, (user) => hasPermission(user.role, "tasks:transition") && user.email !== actor);
      await tell(db, approvers, { kind: "approval", plantId, title: `Postponement to approve: ${move.id} (asked by ${actor})`, link: taskLink(plantId, move.id) }, now);
      return;
    }
    const decision =
      move.from === "NEED_APPROVAL" ? (move.to === "PENDING" ? "approved" : "refused") : move.from === "POSTPONEMENT_NEED_APPROVAL" ? (move.to === "POSTPONED" ? "postponement approved" : "postponement refused") : null;
    if (!decision) return;
    const requester = await requesterOf(db, plantId, move.id);
    if (!requester || requester === actor) return;
    await tell(db, [requester], { kind: "decision", plantId, title: `Your request ${move.id} was ${decision} by ${actor}`, link: taskLink(plantId, move.id) }, now);
  });
}

/** A task was assigned to someone else than the one assigning it. */
export function notifyAssigned(db: SqlDb, plantId: string, taskId: string, assignee: string, actor: string, now = Date.now()): Promise<void> {
  if (assignee === actor) return Promise.resolve();
  return safely("assignment", () => tell(db, [assignee], { kind: "assigned", plantId, title: `${actor} assigned task ${taskId} to you`, link: taskLink(plantId, taskId) }, now));
}

