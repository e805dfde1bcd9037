"use client";
/**
 * The task board of a plant: a column per status with its count, a status filter and a search,
 * cards with priority and role badges. Supervisors move tasks along the allowed transitions, by
 * the buttons in the task's drawer or by dragging a card to a column that accepts it. The URL
 * holds the filter, the search and the open task.
 */
import { useMemo, useState } from "react";
import { ButtonLink } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";
import { errorMessage } from "@/lib/client/api";
import { formatDate, todayIso } from "@/lib/client/dates";
import { useLookupValues, useTasks } from "@/lib/client/maintenance";
import { useCan } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import { TASK_TRANSITIONS, type TTask, type TTaskStatus } from "@/lib/upstream/schemas/maintenance";
import { CreateTaskDrawer } from "./create-task-form";
import { BOARD_ORDER, STATUS_LABELS, parseStatusParam } from "./status";
import { PriorityBadge, RoleBadge } from "./task-badges";
import { TaskDrawer } from "./task-drawer";
import { useTransitionTask } from "./task-mutations";

/** Cards rendered per column before "Show all": the closed column alone can hold hundreds. */
const COLUMN_PAGE = 40;

export function matchesSearch(task: TTask, needle: string): boolean {
  if (!needle) return true;
  const haystack = [task.id, task.taskTitle, task.taskDescription, task.asset.tagNumber, task.asset.serialNumber, task.asset.externalReference, task.priority, task.assignedToRole]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return needle
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

export function TaskBoard({ plantId }: { plantId: string }) {
  const { params, update, get } = useUrlState();
  const statuses = parseStatusParam(params.get("status"));
  const search = get("q");
  const openTaskId = get("task");
  const creating = get("new") === "1";

  const tasks = useTasks(plantId);
  const priorities = useLookupValues(plantId, "priority");
  const roles = useLookupValues(plantId, "assignedToRole");
  const canCreate = useCan("tasks:create");
  const canMove = useCan("tasks:transition");
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string } | null>(null);

  const transition = useTransitionTask(plantId, (error, { task, to }) =>
    setNotice(
      error
        ? { tone: "error", text: `Could not move ${task.id} to ${STATUS_LABELS[to]}: ${errorMessage(error)}` }
        : { tone: "success", text: `${task.id} moved to ${STATUS_LABELS[to]}.` },
    ),
  );

  const shownStatuses = statuses.length > 0 ? BOARD_ORDER.filter((status) => statuses.includes(status)) : BOARD_ORDER;
  const byStatus = useMemo(() => {
    const groups = new Map<TTaskStatus, TTask[]>(BOARD_ORDER.map((status) => [status, []]));
    for (const task of tasks.data ?? []) if (matchesSearch(task, search)) groups.get(task.status)?.push(task);
    return groups;
  }, [tasks.data, search]);
  const openTask = tasks.data?.find((task) => task.id === openTaskId);

  function toggleStatus(status: TTaskStatus) {
    const next = statuses.includes(status) ? statuses.filter((entry) => entry !== status) : [...statuses, status];
    update({ status: next.length > 0 && next.length < BOARD_ORDER.length ? BOARD_ORDER.filter((entry) => next.includes(entry)).join(",") : null });
  }

  return (
    <div className="space-y-4">
      <PageHeader
        title="Task board"
        description={tasks.data ? `${tasks.data.length.toLocaleString("en")} tasks at plant ${plantId}` : `Tasks at plant ${plantId}`}
        actions={
          canCreate ? (
            <ButtonLink variant="primary" href={`?${new URLSearchParams({ ...Object.fromEntries(params), new: "1" })}`} scroll={false}>
              New task
            </ButtonLink>
          ) : null
        }
      />

      <div className="flex flex-wrap items-end gap-4">
        <Field label="Search" className="w-full sm:w-72">
          {(control) => (
            <Input
              {...control}
              type="search"
              placeholder="Title, id, asset, priority…"
              defaultValue={search}
              onChange={(event) => update({ q: event.target.value }, { replace: true })}
            />
          )}
        </Field>
        <fieldset className="flex flex-wrap items-center gap-1.5">
          <legend className="mb-1 text-sm font-medium">Status</legend>
          {BOARD_ORDER.map((status) => {
            const on = statuses.length === 0 || statuses.includes(status);
            return (
              <button
                key={status}
                type="button"
                aria-pressed={statuses.includes(status)}
                onClick={() => toggleStatus(status)}
                className={cn(
                  "rounded-full border px-3 py-1 text-xs font-medium",
                  statuses.includes(status) ? "border-accent bg-accent-soft text-accent" : "border-line text-fg-muted hover:bg-surface-2",
                  !on && "opacity-70",
                )}
              >
                {STATUS_LABELS[status]}
              </button>
            );
          })}
          {statuses.length > 0 ? (
            <button type="button" onClick={() => update({ status: null })} className="px-2 py-1 text-xs font-medium text-accent hover:underline">
              All statuses
            </button>
          ) : null}
        </fieldset>
      </div>

      <div role="status" aria-live="polite" className="min-h-0">
        {notice ? (
          <p
            className={cn(
              "flex items-center justify-between gap-3 rounded-md px-3 py-2 text-sm",
              notice.tone === "error" ? "bg-danger-soft text-danger" : "bg-success-soft text-success",
            )}
          >
            {notice.text}
            <button type="button" className="text-xs font-medium underline" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </p>
        ) : null}
      </div>

      {tasks.error ? (
        <ErrorState error={tasks.error} onRetry={() => void tasks.refetch()} />
      ) : (
        <div className="relative flex gap-3 overflow-x-auto pb-3" data-testid="task-board">
          {shownStatuses.map((status) => (
            <BoardColumn
              key={status}
              status={status}
              tasks={byStatus.get(status) ?? []}
              loading={tasks.isPending}
              canMove={canMove}
              priorities={priorities.data}
              roles={roles.data}
              onOpen={(task) => update({ task: task.id }, { keepPage: true })}
              onDropTask={(task) => transition.mutate({ task, to: status })}
            />
          ))}
        </div>
      )}

      <TaskDrawer
        plantId={plantId}
        taskId={openTaskId}
        task={openTask}
        isLoading={tasks.isPending}
        canMove={canMove}
        priorities={priorities.data}
        roles={roles.data}
        onMove={(task, to, remark) => transition.mutate({ task, to, remark })}
        isMoving={transition.isPending}
        onClose={() => update({ task: null }, { keepPage: true, replace: true })}
      />
      {canCreate ? (
        <CreateTaskDrawer
          plantId={plantId}
          open={creating}
          onClose={() => update({ new: null }, { keepPage: true, replace: true })}
          onCreated={(id) => {
            setNotice({ tone: "success", text: `Task ${id} created. It waits for approval.` });
            update({ new: null, task: id, status: null, q: null }, { replace: true });
          }}
        />
      ) : null}
    </div>
  );
}

/** The task being dragged (HTML drag data is unreadable during dragover, so it is kept here). */
let dragged: TTask | null = null;

function BoardColumn({
  status,
  tasks,
  loading,
  canMove,
  priorities,
  roles,
  onOpen,
  onDropTask,
}: {
  status: TTaskStatus;
  tasks: TTask[];
  loading: boolean;
  canMove: boolean;
  priorities: Parameters<typeof PriorityBadge>[0]["priorities"];
  roles: Parameters<typeof RoleBadge>[0]["roles"];
  onOpen: (task: TTask) => void;
  onDropTask: (task: TTask) => void;
}) {
  const [showAll, setShowAll] = useState(false);
  const [dropState, setDropState] = useState<"none" | "allowed" | "refused">("none");
  const shown = showAll ? tasks : tasks.slice(0, COLUMN_PAGE);
  const headingId = `column-${status}`;
  const today = todayIso();

  return (
    <section
      aria-labelledby={headingId}
      data-status={status}
      className={cn(
        "flex w-72 shrink-0 flex-col rounded-lg border bg-surface-2/60",
        dropState === "allowed" ? "border-accent ring-2 ring-accent" : dropState === "refused" ? "border-danger" : "border-line",
      )}
      onDragOver={(event) => {
        if (!canMove || !dragged) return;
        const allowed = TASK_TRANSITIONS[dragged.status].includes(status);
        setDropState(allowed ? "allowed" : "refused");
        if (allowed) event.preventDefault();
      }}
      onDragLeave={() => setDropState("none")}
      onDrop={(event) => {
        event.preventDefault();
        setDropState("none");
        if (dragged && TASK_TRANSITIONS[dragged.status].includes(status)) onDropTask(dragged);
        dragged = null;
      }}
    >
      <h2 id={headingId} className="flex items-center justify-between px-3 py-2.5 text-sm font-semibold">
        {STATUS_LABELS[status]}
        <span className="rounded-full bg-surface px-2 py-0.5 text-xs tabular-nums text-fg-muted" data-testid={`count-${status}`}>
          {loading ? "…" : tasks.length}
          <span className="sr-only"> tasks</span>
        </span>
      </h2>
      <ul className="flex max-h-[70vh] min-h-24 flex-col gap-2 overflow-y-auto px-2 pb-2">
        {loading
          ? Array.from({ length: 3 }, (_, index) => (
              <li key={index}>
                <Skeleton className="h-20 w-full" />
              </li>
            ))
          : shown.map((task) => {
              const overdue = task.dueDate !== null && task.dueDate < today && task.status !== "CLOSED";
              return (
                <li key={task.id}>
                  <button
                    type="button"
                    draggable={canMove && TASK_TRANSITIONS[task.status].length > 0}
                    onDragStart={(event) => {
                      dragged = task;
                      event.dataTransfer.setData("text/plain", task.id);
                      event.dataTransfer.effectAllowed = "move";
                    }}
                    onDragEnd={() => {
                      dragged = null;
                    }}
                    onClick={() => onOpen(task)}
                    className="w-full rounded-md border border-line bg-surface p-2.5 text-left shadow-sm hover:border-accent"
                    data-testid={`task-card-${task.id}`}
                  >
                    <span className="block text-sm leading-snug font-medium">{task.taskTitle}</span>
                    <span className="mt-1 block text-xs text-fg-muted">
                      {task.id} · <span className="font-mono">{task.asset.tagNumber}</span>
                    </span>
                    <span className="mt-2 flex flex-wrap items-center gap-1">
                      <PriorityBadge priority={task.priority} priorities={priorities} />
                      <RoleBadge role={task.assignedToRole} roles={roles} />
                      {task.dueDate ? (
                        <span className={cn("text-xs", overdue ? "font-semibold text-danger" : "text-fg-muted")}>
                          {overdue ? "Overdue · " : "Due "}
                          {formatDate(task.dueDate)}
                        </span>
                      ) : null}
                    </span>
                  </button>
                </li>
              );
            })}
        {!loading && tasks.length === 0 ? <li className="px-1 py-4 text-center text-xs text-fg-muted">No tasks</li> : null}
      </ul>
      {tasks.length > COLUMN_PAGE ? (
        <button type="button" onClick={() => setShowAll((value) => !value)} className="border-t border-line px-3 py-2 text-xs font-medium text-accent hover:underline">
          {showAll ? "Show fewer" : `Show all ${tasks.length}`}
        </button>
      ) : null}
    </section>
  );
}
