"use client";

import Link from "next/link";
import { useState } from "react";
import { plantPath } from "@/components/shell/nav-items";
import { Button } from "@/components/ui/button";
import { DetailList, Drawer } from "@/components/ui/drawer";
import { Field, Textarea } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/states";
import { useFormat } from "@/lib/client/format";
import type { LookupLabels } from "@/lib/client/maintenance";
import type { TTask, TTaskStatus } from "@/lib/contract/maintenance";
import { TASK_TRANSITIONS } from "@/lib/contract/vocabulary";
import { TaskMonitorOrigin } from "@/components/monitors/monitor-links";
import { STATUS_LABELS } from "./status";
import { TaskActivity } from "./task-activity";
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
  labels,
  onMove,
  isMoving,
  onClose,
}: {
  plantId: string;
  taskId: string;
  task: TTask | undefined;
  isLoading: boolean;
  canMove: boolean;
  labels: LookupLabels;
  onMove: (task: TTask, to: TTaskStatus, remark: string) => void;
  isMoving: boolean;
  onClose: () => void;
}) {
  const [remark, setRemark] = useState("");
  const moves = task ? TASK_TRANSITIONS[task.status] : [];
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
            <PriorityBadge priority={task.priority} labels={labels} />
            <RoleBadge role={task.assignedToRole} labels={labels} />
          </div>
          {task.taskDescription ? <p className="text-sm whitespace-pre-line wrap-anywhere">{task.taskDescription}</p> : null}
          <TaskMonitorOrigin plantId={plantId} taskId={task.id} />
          <DetailList
            items={[
              { label: "Status", value: STATUS_LABELS[task.status] },
              { label: "Priority", value: labels.label("priority", task.priority) },
              { label: "Activity kind", value: labels.label("activityKind", task.activityKind) },
              { label: "Assigned to", value: labels.label("assignedToRole", task.assignedToRole) },
              { label: "Created", value: format.date(task.createdDate) },
              { label: task.status === "CLOSED" ? "Was due" : "Due", value: format.date(task.dueDate) },
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
