"use client";

import Link from "next/link";
import { useState } from "react";
import { plantPath } from "@/components/shell/nav-items";
import { Button } from "@/components/ui/button";
import { DetailList, Drawer } from "@/components/ui/drawer";
import { Field, Textarea } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/states";
import { formatDate } from "@/lib/client/dates";
import { TASK_TRANSITIONS, type TLookupValue, type TTask, type TTaskStatus } from "@/lib/upstream/schemas/maintenance";
import { STATUS_LABELS } from "./status";
import { PriorityBadge, RoleBadge, StatusBadge } from "./task-badges";

/** Wording of each move on its button: what the supervisor decides, not the target's name. */
const MOVE_LABELS: Partial<Record<`${TTaskStatus}>${TTaskStatus}`, string>> = {
  "NEED_APPROVAL>PENDING": "Approve",
  "NEED_APPROVAL>CLOSED": "Reject and close",
  "PENDING>POSTPONEMENT_NEED_APPROVAL": "Request postponement",
  "PENDING>NEED_CONFIRMATION": "Report done",
  "POSTPONEMENT_NEED_APPROVAL>POSTPONED": "Approve postponement",
  "POSTPONEMENT_NEED_APPROVAL>PENDING": "Refuse postponement",
  "POSTPONED>PENDING": "Resume",
  "NEED_CONFIRMATION>CLOSED": "Confirm and close",
  "NEED_CONFIRMATION>NOT_CLOSED": "Not done: reopen",
  "NOT_CLOSED>PENDING": "Back to pending",
};

export function moveLabel(from: TTaskStatus, to: TTaskStatus): string {
  return MOVE_LABELS[`${from}>${to}`] ?? `Move to ${STATUS_LABELS[to]}`;
}

export function TaskDrawer({
  plantId,
  taskId,
  task,
  isLoading,
  canMove,
  priorities,
  roles,
  onMove,
  isMoving,
  onClose,
}: {
  plantId: string;
  taskId: string;
  task: TTask | undefined;
  isLoading: boolean;
  canMove: boolean;
  priorities: readonly TLookupValue[] | undefined;
  roles: readonly TLookupValue[] | undefined;
  onMove: (task: TTask, to: TTaskStatus, remark: string) => void;
  isMoving: boolean;
  onClose: () => void;
}) {
  const [remark, setRemark] = useState("");
  const moves = task ? TASK_TRANSITIONS[task.status] : [];

  return (
    <Drawer
      open={Boolean(taskId)}
      onClose={onClose}
      title={task ? task.taskTitle : `Task ${taskId}`}
      description={task ? <>Task {task.id}</> : undefined}
      footer={
        task && canMove && moves.length > 0 ? (
          <div className="space-y-3">
            <Field label="Remark for the move (optional)">
              {(control) => <Textarea {...control} className="min-h-16" maxLength={1000} value={remark} onChange={(event) => setRemark(event.target.value)} />}
            </Field>
            <div className="flex flex-wrap gap-2">
              {moves.map((to, index) => (
                <Button
                  key={to}
                  variant={index === 0 ? "primary" : "secondary"}
                  disabled={isMoving}
                  onClick={() => {
                    onMove(task, to, remark.trim());
                    setRemark("");
                  }}
                >
                  {moveLabel(task.status, to)}
                </Button>
              ))}
            </div>
          </div>
        ) : null
      }
    >
      {!task ? (
        isLoading ? (
          <p role="status" className="text-sm text-fg-muted">
            Loading…
          </p>
        ) : (
          <EmptyState title="Task not found">There is no task {taskId} at plant {plantId}.</EmptyState>
        )
      ) : (
        <div className="space-y-6">
          <div className="flex flex-wrap gap-2">
            <StatusBadge status={task.status} />
            <PriorityBadge priority={task.priority} priorities={priorities} />
            <RoleBadge role={task.assignedToRole} roles={roles} />
          </div>
          {task.taskDescription ? <p className="text-sm whitespace-pre-line">{task.taskDescription}</p> : null}
          <DetailList
            items={[
              { label: "Status", value: STATUS_LABELS[task.status] },
              { label: "Priority", value: priorities?.find((entry) => entry.value === task.priority)?.label ?? task.priority },
              { label: "Activity", value: task.activityKind },
              { label: "Assigned to", value: roles?.find((entry) => entry.value === task.assignedToRole)?.label ?? task.assignedToRole ?? "—" },
              {
                label: "Asset",
                value: (
                  <Link className="font-medium text-accent hover:underline" href={`${plantPath(plantId, "planned")}?asset=${encodeURIComponent(task.asset.tagNumber)}`}>
                    {task.asset.tagNumber}
                  </Link>
                ),
              },
              { label: "Serial number", value: task.asset.serialNumber ?? "—" },
              { label: "External reference", value: task.asset.externalReference ?? "—" },
            ]}
          />
          <section aria-labelledby="task-history">
            <h3 id="task-history" className="mb-2 text-sm font-semibold">
              History
            </h3>
            <ol className="relative space-y-3 border-l border-line pl-4 text-sm">
              {historyOf(task).map((entry) => (
                <li key={entry.label} className="relative">
                  <span aria-hidden="true" className="absolute top-1.5 -left-[21px] h-2.5 w-2.5 rounded-full border-2 border-surface bg-accent" />
                  <span className="font-medium">{entry.label}</span> <span className="text-fg-muted">{entry.when}</span>
                </li>
              ))}
            </ol>
            {!canMove && moves.length > 0 ? <p className="mt-4 text-xs text-fg-muted">Only supervisors can move tasks between statuses.</p> : null}
          </section>
        </div>
      )}
    </Drawer>
  );
}

/**
 * The task's life as its record tells it (the service keeps every move, but the interface does
 * not publish that list): incident, creation, where it stands now, and when it is due.
 */
function historyOf(task: TTask): Array<{ label: string; when: string }> {
  const entries: Array<{ label: string; when: string; sortKey: string }> = [];
  if (task.incidentDate) entries.push({ label: "Incident", when: formatDate(task.incidentDate), sortKey: task.incidentDate + "0" });
  entries.push({ label: "Created, awaiting approval", when: formatDate(task.createdDate), sortKey: task.createdDate + "1" });
  if (task.status !== "NEED_APPROVAL") entries.push({ label: `Now: ${STATUS_LABELS[task.status]}`, when: "current status", sortKey: "9" });
  if (task.dueDate) entries.push({ label: task.status === "CLOSED" ? "Was due" : "Due", when: formatDate(task.dueDate), sortKey: task.dueDate + "2" });
  return entries.sort((a, b) => a.sortKey.localeCompare(b.sortKey));
}
