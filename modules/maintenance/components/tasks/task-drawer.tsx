"use client";

import Link from "next/link";
import { useState } from "react";
import { plantPath } from "@/components/shell/nav-items";
import { Button } from "@/components/ui/button";
import { DetailList, Drawer } from "@/components/ui/drawer";
import { Field, Textarea } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/states";
import { useFormat } from "@/lib/client/format";
import type { LookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TTask, TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import { CLOSE_OUT_FROM, TASK_TRANSITIONS } from "@/lib/contract/vocabulary";
import { TaskMonitorOrigin } from "@/modules/monitors/components/monitor-links";
import { TaskAttachments } from "@/modules/maintenance/components/attachments/task-attachments";
import { STATUS_LABELS } from "./status";
import { TaskActivity } from "./task-activity";
import { PriorityBadge, RoleBadge, StatusBadge } from "./task-badges";
import { TaskEditor } from "./task-edit-form";
import { AssigneeControl, CloseOutForm, PostponeDate } from "./task-work";

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

function moveLabel(from: TTaskStatus, to: TTaskStatus): string {
  return MOVE_LABELS[`${from}>${to}`] ?? `Move to ${STATUS_LABELS[to]}`;
}

export function TaskDrawer({
  plantId,
  taskId,
  task,
  isLoading,
  canMove,
  labels,
  onMove,
  isMoving,
  onClose,
  canEdit = false,
  canCloseOutAny = false,
  meEmail = "",
  notice = null,
  onNotice = () => {},
}: {
  plantId: string;
  taskId: string;
  task: TTask | undefined;
  isLoading: boolean;
  canMove: boolean;
  labels: LookupLabels;
  onMove: (task: TTask, to: TTaskStatus, remark: string, dueDate?: string) => void;
  isMoving: boolean;
  onClose: () => void;
  canEdit?: boolean;
  canCloseOutAny?: boolean;
  meEmail?: string;
  /** The outcome of the last action, shown in the drawer itself (the board's notice is behind it). */
  notice?: { tone: "error" | "success"; text: string } | null;
  onNotice?: (tone: "error" | "success", text: string) => void;
}) {
  const [remark, setRemark] = useState("");
  const [dueDate, setDueDate] = useState("");
  const [dueDateError, setDueDateError] = useState<string | undefined>();
  // With the extensions (the task carries `assignee`), closing after confirmation is the close-out form's.
  const recordsWork = task?.assignee !== undefined;
  // Work is closed out once approved (the service also takes an unapproved request; the drawer offers "Reject and close" there).
  const canCloseOut = Boolean(
    task && recordsWork && (canCloseOutAny || task.assignee?.username === meEmail) && task.status !== "NEED_APPROVAL" && (CLOSE_OUT_FROM as readonly string[]).includes(task.status),
  );
  const moves = task ? TASK_TRANSITIONS[task.status].filter((to) => !(recordsWork && task.status === "NEED_CONFIRMATION" && to === "CLOSED")) : [];
  const asksDate = moves.includes("POSTPONEMENT_NEED_APPROVAL");
  const format = useFormat();

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
            {asksDate ? <PostponeDate value={dueDate} onChange={(value) => { setDueDate(value); setDueDateError(undefined); }} error={dueDateError} /> : null}
            <div className="flex flex-wrap gap-2">
              {moves.map((to, index) => (
                <Button
                  key={to}
                  variant={index === 0 ? "primary" : "secondary"}
                  disabled={isMoving}
                  onClick={() => {
                    if (to === "POSTPONEMENT_NEED_APPROVAL" && !dueDate) {
                      setDueDateError("Choose the new due date the postponement asks for.");
                      return;
                    }
                    onMove(task, to, remark.trim(), to === "POSTPONEMENT_NEED_APPROVAL" ? dueDate : undefined);
                    setRemark("");
                    setDueDate("");
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
          {notice ? (
            <p role="status" className={notice.tone === "error" ? "rounded-md bg-danger-soft px-3 py-2 text-sm text-danger" : "rounded-md bg-success-soft px-3 py-2 text-sm text-success"} data-testid="drawer-notice">
              {notice.text}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <StatusBadge status={task.status} />
            <PriorityBadge priority={task.priority} labels={labels} />
            <RoleBadge role={task.assignedToRole} labels={labels} />
          </div>
          {task.taskDescription ? <p className="text-sm whitespace-pre-line wrap-anywhere">{task.taskDescription}</p> : null}
          <TaskMonitorOrigin plantId={plantId} taskId={task.id} />
          {task.planId || (recordsWork && task.status === "CLOSED") ? (
            <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="task-links">
              {task.planId ? (
                <Link className="font-medium text-accent hover:underline" href={`${plantPath(plantId, "plans")}?plan=${encodeURIComponent(task.planId)}`}>
                  Opened by maintenance plan {task.planId}
                </Link>
              ) : null}
              {recordsWork && task.status === "CLOSED" ? (
                <Link className="font-medium text-accent hover:underline" href={`${plantPath(plantId, "jobs")}?asset=${encodeURIComponent(task.asset.tagNumber)}&task=${encodeURIComponent(task.id)}`}>
                  Its job record
                </Link>
              ) : null}
            </p>
          ) : null}
          <DetailList
            items={[
              { label: "Status", value: STATUS_LABELS[task.status] },
              { label: "Priority", value: labels.label("priority", task.priority) },
              { label: "Activity kind", value: labels.label("activityKind", task.activityKind) },
              { label: "Role", value: labels.label("assignedToRole", task.assignedToRole) },
              ...(recordsWork && !(canEdit && task.status !== "CLOSED")
                ? [{ label: "Assignee", value: <AssigneeControl plantId={plantId} task={task} canEdit={false} onDone={() => {}} /> }]
                : []),
              { label: "Created", value: format.date(task.createdDate) },
              { label: task.status === "CLOSED" ? "Was due" : "Due", value: format.date(task.dueDate) },
              ...(task.proposedDueDate ? [{ label: "Postpone to", value: format.date(task.proposedDueDate) }] : []),
              ...(task.incidentDate ? [{ label: "Incident", value: format.date(task.incidentDate) }] : []),
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
          {recordsWork && canEdit && task.status !== "CLOSED" ? (
            <>
              <AssigneeControl plantId={plantId} task={task} canEdit onDone={(text, ok) => onNotice(ok ? "success" : "error", text)} />
              <TaskEditor key={task.id} plantId={plantId} task={task} labels={labels} onDone={(text, ok) => onNotice(ok ? "success" : "error", text)} />
            </>
          ) : null}
          {recordsWork ? (
            <TaskAttachments key={task.id} plantId={plantId} taskId={task.id} canAttach={canEdit || canCloseOutAny || task.assignee?.username === meEmail} />
          ) : null}
          {canCloseOut ? (
            <section className="rounded-lg border border-line p-3">
              <CloseOutForm key={task.id} plantId={plantId} task={task} labels={labels} meEmail={meEmail} onClosed={(text) => onNotice("success", text)} />
            </section>
          ) : null}
          <section aria-labelledby="task-activity-heading">
            <h3 id="task-activity-heading" className="mb-2 text-sm font-semibold">
              Activity log
            </h3>
            <TaskActivity plantId={plantId} taskId={task.id} />
            {!canMove && moves.length > 0 ? <p className="mt-4 text-xs text-fg-muted">Only supervisors can move tasks between statuses.</p> : null}
          </section>
        </div>
      )}
    </Drawer>
  );
}
