"use client";
/**
 * The task board of a plant: a column per status with its count, a status filter and a search,
 * cards with priority and role badges. Supervisors move tasks along the allowed transitions, by
 * the buttons in the task's drawer or by dragging a card (mouse, pen or finger: board-drag.ts) to a
 * column that accepts it. The URL holds the filter, the search and the open task.
 */
import { useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode, type RefObject } from "react";
import { ButtonLink } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";
import { ApiError, errorMessage } from "@/lib/client/api";
import { useFormat, useToday } from "@/lib/client/format";
import { useLookupLabels, useTasks, type LookupLabels, type ServerRead } from "@/modules/maintenance/client/maintenance";
import { useCan, useMe } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import type { TLookupValue, TTask, TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import { TASK_TRANSITIONS } from "@/lib/contract/vocabulary";
import { CreateTaskDrawer } from "./create-task-form";
import { BOARD_ORDER, OPEN_STATUSES, STATUS_LABELS, isTaskStatus, parseStatusParam } from "./status";
import { PriorityBadge, RoleBadge } from "./task-badges";
import { TaskDrawer } from "./task-drawer";
import { useTransitionTask } from "./task-mutations";
import { useBoardDrag, type BoardDrag } from "./board-drag";
import { personName } from "./task-work";

/** "updated 3 s ago", re-rendered every few seconds. */
function useUpdatedAgo(at: number): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 5000);
    return () => clearInterval(timer);
  }, []);
  if (!at) return "";
  const seconds = Math.max(0, Math.round((Math.max(now, at) - at) / 1000));
  return seconds < 10 ? "updated just now" : seconds < 90 ? `updated ${seconds} s ago` : `updated ${Math.round(seconds / 60)} min ago`;
}

/** A refused move in words: what the task is now, when someone else moved it first. */
function refusedMoveText(error: unknown, task: TTask, to: TTaskStatus): string {
  const now = error instanceof ApiError && error.code === "INVALID_TRANSITION" ? (error.data[0] as { from?: unknown } | undefined)?.from : undefined;
  if (typeof now === "string" && isTaskStatus(now) && now !== task.status) {
    return `${task.id} was already moved to ${STATUS_LABELS[now]} by someone else, so it was not moved to ${STATUS_LABELS[to]}. The card now shows it as it is.`;
  }
  return `Could not move ${task.id} to ${STATUS_LABELS[to]}: ${errorMessage(error)}`;
}

const CLEAR_PREFILL = { asset: null, incident: null, desc: null, title: null };

/** Cards rendered per column before "Show all": the closed column alone can hold hundreds. */
const COLUMN_PAGE = 40;
/**
 * Cards per column in the server's HTML: a screenful (a column shows about seven). React shows a
 * page that streams in behind its loading skeleton at once if the browser has parsed it before its
 * next frame, else 300 ms after the skeleton's first frame; 40 cards in each of seven columns
 * (≈ 340 kB of HTML) took longer than a frame to parse, and the board appeared later than with no
 * server rendering at all (docs/architecture.md, "Pages that render their data").
 */
const FIRST_PAINT_CARDS = 8;

/** Words of the search in any of the task's texts, its codes or their labels ("emergency" finds P1). */
function matchesSearch(task: TTask, needle: string, labels: Pick<LookupLabels, "label">): boolean {
  if (!needle) return true;
  const haystack = [
    task.id,
    task.taskTitle,
    task.taskDescription,
    task.asset.tagNumber,
    task.asset.serialNumber,
    task.asset.externalReference,
    task.priority,
    labels.label("priority", task.priority),
    task.assignedToRole,
    task.assignedToRole ? labels.label("assignedToRole", task.assignedToRole) : null,
    task.activityKind,
    labels.label("activityKind", task.activityKind),
  ]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return needle
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

/**
 * What the page read on the server (app/…/tasks/page.tsx): the tasks (the first page of the list,
 * `complete` when it is all of it) and the plant's lookup values, each null when that read failed.
 */
export interface BoardSeed {
  tasks: ServerRead<TTask[]> | null;
  lookups: ServerRead<TLookupValue[]> | null;
}

/** True once the page has hydrated (false on the server and in the hydrating render). */
const noSubscription = () => () => undefined;
function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

export function TaskBoard({ plantId, seed }: { plantId: string; seed?: BoardSeed }) {
  const { params, update, get } = useUrlState();
  const statuses = parseStatusParam(params.get("status"));
  const search = get("q");
  const openTaskId = get("task");
  const creating = get("new") === "1";
  const mine = get("mine") === "1";
  // Filled in by a link from an alarm (components/telemetry/alarm-task.ts).
  const prefill = { assetTagNumber: get("asset"), incidentDate: get("incident"), taskDescription: get("desc"), taskTitle: get("title") };
  const initial = Object.fromEntries(Object.entries(prefill).filter(([, value]) => value !== ""));

  // The board keeps itself current: every few seconds a revalidated read (304 while nothing changed).
  const tasks = useTasks(plantId, { poll: true, initial: seed?.tasks });
  const updatedAgo = useUpdatedAgo(tasks.dataUpdatedAt);
  const labels = useLookupLabels(plantId, seed?.lookups);
  const hydrated = useHydrated();
  // A screenful first (the server's HTML and the hydration), the rest of each column's first page in
  // a background render right after: the first cards show and respond without waiting for them.
  const cardLimit = useDeferredValue(COLUMN_PAGE, FIRST_PAINT_CARDS);
  const me = useMe().data;
  const canCreate = useCan("tasks:create");
  const canMove = useCan("tasks:transition");
  const canEdit = useCan("tasks:edit");
  const canCloseOutAny = useCan("tasks:close-out");
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  // Whether the service keeps assignees (a task record with the member): "My work" needs them.
  const hasAssignees = tasks.data?.some((task) => task.assignee !== undefined) ?? false;

  const transition = useTransitionTask(plantId, (error, { task, to }) =>
    setNotice(error ? { tone: "error", text: refusedMoveText(error, task, to) } : { tone: "success", text: `${task.id} moved to ${STATUS_LABELS[to]}.` }),
  );

  const scroller = useRef<HTMLDivElement>(null);
  const { drag, cardProps } = useBoardDrag({
    scroller,
    canDrag: (task) => canMove && TASK_TRANSITIONS[task.status].length > 0,
    onDrop: (task, to) => {
      if (TASK_TRANSITIONS[task.status].includes(to)) transition.mutate({ task, to });
      else setNotice({ tone: "error", text: `${task.id} cannot move from ${STATUS_LABELS[task.status]} to ${STATUS_LABELS[to]}.` });
    },
  });

  const shownStatuses = statuses.length > 0 ? BOARD_ORDER.filter((status) => statuses.includes(status)) : BOARD_ORDER;
  const byStatus = useMemo(() => {
    const groups = new Map<TTaskStatus, TTask[]>(BOARD_ORDER.map((status) => [status, []]));
    for (const task of tasks.data ?? []) {
      if (mine && (task.assignee?.username !== me?.email || !OPEN_STATUSES.includes(task.status))) continue;
      if (matchesSearch(task, search, labels)) groups.get(task.status)?.push(task);
    }
    return groups;
  }, [tasks.data, search, labels, mine, me?.email]);
  // The drawer's content is drawn in the browser only: its forms restore drafts from this tab's
  // storage, which the server cannot see (the server's HTML would then differ from the hydration's).
  const openTask = hydrated ? tasks.data?.find((task) => task.id === openTaskId) : undefined;

  function toggleStatus(status: TTaskStatus) {
    const next = statuses.includes(status) ? statuses.filter((entry) => entry !== status) : [...statuses, status];
    update({ status: next.length > 0 && next.length < BOARD_ORDER.length ? BOARD_ORDER.filter((entry) => next.includes(entry)).join(",") : null });
  }

  return (
    <div className="space-y-4">
      <PageHeader
        title="Task board"
        description={
          tasks.data ? (
            <>
              {tasks.data.length.toLocaleString("en")} tasks at plant {plantId} · <span data-testid="board-updated" suppressHydrationWarning>
                {updatedAgo}
              </span>
            </>
          ) : (
            `Tasks at plant ${plantId}`
          )
        }
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
        {hasAssignees ? (
          <label className="flex items-center gap-2 pb-2 text-sm font-medium">
            <input type="checkbox" className="h-4 w-4 accent-accent" checked={mine} onChange={(event) => update({ mine: event.target.checked ? "1" : null })} data-testid="my-work" />
            My work (open tasks assigned to me)
          </label>
        ) : null}
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
        {/* While a task's drawer is open the notice shows in the drawer, not behind it. */}
        {notice && !openTaskId ? (
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
        <ScrollingBoard scroller={scroller} columnCount={shownStatuses.length}>
          {shownStatuses.map((status) => (
            <BoardColumn
              key={status}
              status={status}
              tasks={byStatus.get(status) ?? []}
              loading={tasks.isPending}
              limit={cardLimit}
              labels={labels}
              drop={drag && drag.over === status && drag.task.status !== status ? (TASK_TRANSITIONS[drag.task.status].includes(status) ? "allowed" : "refused") : "none"}
              cardProps={cardProps}
              onOpen={(task) => update({ task: task.id }, { keepPage: true })}
            />
          ))}
        </ScrollingBoard>
      )}
      {drag ? <DragGhost drag={drag} /> : null}

      <TaskDrawer
        plantId={plantId}
        taskId={openTaskId}
        task={openTask}
        isLoading={tasks.isPending || !hydrated}
        canMove={canMove}
        labels={labels}
        onMove={(task, to, remark, dueDate) => transition.mutate({ task, to, remark, dueDate })}
        isMoving={transition.isPending}
        canEdit={canEdit}
        canCloseOutAny={canCloseOutAny}
        meEmail={me?.email ?? ""}
        notice={notice}
        onNotice={(tone, text) => setNotice({ tone, text })}
        onClose={() => {
          const id = openTaskId;
          update({ task: null }, { keepPage: true, replace: true });
          setNotice(null);
          // Back to the card that opened it, wherever it is now (a move puts it in another column).
          requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-testid="task-card-${CSS.escape(id)}"]`)?.focus());
        }}
      />
      {canCreate ? (
        <CreateTaskDrawer
          plantId={plantId}
          open={creating}
          initial={initial}
          onClose={() => update({ new: null, ...CLEAR_PREFILL }, { keepPage: true, replace: true })}
          onCreated={(id) => {
            setNotice({ tone: "success", text: `Task ${id} created. It waits for approval.` });
            update({ new: null, task: id, status: null, q: null, ...CLEAR_PREFILL }, { replace: true });
          }}
        />
      ) : null}
    </div>
  );
}

/**
 * The columns side by side, scrolling sideways when they do not all fit (seven columns never fit a
 * tablet, and rarely a laptop). Faded edges with arrow buttons show that more columns are there and
 * how many; the strip itself takes focus, so arrow keys scroll it too.
 */
function ScrollingBoard({ scroller, columnCount, children }: { scroller: RefObject<HTMLDivElement | null>; columnCount: number; children: ReactNode }) {
  const [hidden, setHidden] = useState({ before: 0, after: 0 });

  useEffect(() => {
    const board = scroller.current;
    if (!board) return;
    const measure = () => {
      const view = board.getBoundingClientRect();
      let before = 0;
      let after = 0;
      for (const column of board.querySelectorAll<HTMLElement>("[data-status]")) {
        const rect = column.getBoundingClientRect();
        // A column counts as hidden when less than half of it shows.
        if (rect.left + rect.width / 2 < view.left) before += 1;
        else if (rect.left + rect.width / 2 > view.right) after += 1;
      }
      setHidden((current) => (current.before === before && current.after === after ? current : { before, after }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(board);
    board.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      board.removeEventListener("scroll", measure);
    };
  }, [scroller, columnCount]);

  const scrollByColumn = (direction: 1 | -1) => {
    const board = scroller.current;
    const column = board?.querySelector<HTMLElement>("[data-status]");
    if (board && column) board.scrollBy({ left: direction * (column.offsetWidth + 12), behavior: "smooth" });
  };
  const shown = columnCount - hidden.before - hidden.after;

  return (
    <div className="space-y-1">
      <div className="relative">
        <div
          ref={scroller}
          role="region"
          aria-label={`Task board, ${columnCount} columns`}
          tabIndex={0}
          // `relative`: the columns' visually hidden texts (absolutely placed) then scroll and clip
          // with the columns; otherwise they sit at their far-right place in the page and widen it.
          className="relative flex snap-x gap-3 overflow-x-auto pb-3"
          data-testid="task-board"
          onKeyDown={(event) => {
            // Home and End reach the first and the last column (arrow keys already scroll).
            if (event.target !== event.currentTarget || (event.key !== "Home" && event.key !== "End")) return;
            event.preventDefault();
            const board = event.currentTarget;
            board.scrollTo({ left: event.key === "Home" ? 0 : board.scrollWidth, behavior: "smooth" });
          }}
        >
          {children}
        </div>
        {hidden.before > 0 ? <EdgeButton side="left" count={hidden.before} onClick={() => scrollByColumn(-1)} /> : null}
        {hidden.after > 0 ? <EdgeButton side="right" count={hidden.after} onClick={() => scrollByColumn(1)} /> : null}
      </div>
      {hidden.before + hidden.after > 0 ? (
        <p className="text-xs text-fg-muted" data-testid="board-scroll-hint">
          Showing {shown} of {columnCount} columns · scroll sideways, use the arrows, or drag a card to an edge
        </p>
      ) : null}
    </div>
  );
}

function EdgeButton({ side, count, onClick }: { side: "left" | "right"; count: number; onClick: () => void }) {
  const label = `${count} more ${count === 1 ? "column" : "columns"} ${side === "left" ? "to the left" : "to the right"}`;
  return (
    <div
      className={cn(
        "pointer-events-none absolute top-0 bottom-3 flex w-16 items-center",
        side === "left" ? "left-0 justify-start bg-gradient-to-r from-canvas" : "right-0 justify-end bg-gradient-to-l from-canvas",
      )}
    >
      <button
        type="button"
        onClick={onClick}
        aria-label={`Scroll: ${label}`}
        title={label}
        className="pointer-events-auto flex h-10 min-w-10 items-center justify-center gap-0.5 rounded-full border border-line bg-surface px-2 text-sm font-semibold text-fg shadow-md hover:bg-surface-2"
        data-testid={`board-scroll-${side}`}
      >
        {side === "left" ? <span aria-hidden="true">‹</span> : null}
        <span className="tabular-nums">{count}</span>
        {side === "right" ? <span aria-hidden="true">›</span> : null}
      </button>
    </div>
  );
}

/**
 * Arrow keys among the cards: up and down within a column, left and right to the next column's
 * card at the same height (or its last), Home and End to a column's ends.
 */
function rovingKeys(event: React.KeyboardEvent<HTMLElement>) {
  const card = (event.target as HTMLElement).closest<HTMLElement>("[data-card-index]");
  if (!card) return;
  const column = card.closest<HTMLElement>("[data-status]")!;
  const cards = (scope: HTMLElement) => [...scope.querySelectorAll<HTMLElement>("[data-card-index]")];
  const mine = cards(column);
  const index = mine.indexOf(card);
  let target: HTMLElement | undefined;
  if (event.key === "ArrowDown") target = mine[index + 1];
  else if (event.key === "ArrowUp") target = mine[index - 1];
  else if (event.key === "Home") target = mine[0];
  else if (event.key === "End") target = mine.at(-1);
  else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const columns = [...column.parentElement!.querySelectorAll<HTMLElement>("[data-status]")];
    const step = event.key === "ArrowRight" ? 1 : -1;
    for (let at = columns.indexOf(column) + step; at >= 0 && at < columns.length && !target; at += step) {
      const next = cards(columns[at]!);
      target = next[Math.min(index, next.length - 1)];
    }
  } else return;
  event.preventDefault();
  target?.focus();
  target?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

/** The lifted card under the pointer while dragging. */
function DragGhost({ drag }: { drag: BoardDrag }) {
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none fixed z-50 w-60 -translate-x-1/2 -translate-y-1/2 rotate-2 rounded-md border border-accent bg-surface p-2.5 text-sm font-medium shadow-xl wrap-anywhere"
      style={{ left: drag.x, top: drag.y }}
    >
      {drag.task.taskTitle}
    </div>
  );
}

type CardProps = ReturnType<typeof useBoardDrag>["cardProps"];

function BoardColumn({
  status,
  tasks,
  loading,
  limit,
  labels,
  drop,
  cardProps,
  onOpen,
}: {
  status: TTaskStatus;
  tasks: TTask[];
  loading: boolean;
  /** Cards shown before "Show all". */
  limit: number;
  labels: LookupLabels;
  drop: "none" | "allowed" | "refused";
  cardProps: CardProps;
  onOpen: (task: TTask) => void;
}) {
  const [showAll, setShowAll] = useState(false);
  const [active, setActive] = useState(0);
  const shown = showAll ? tasks : tasks.slice(0, limit);
  const headingId = `column-${status}`;
  const today = useToday();
  const format = useFormat();

  return (
    <section
      aria-labelledby={headingId}
      data-status={status}
      data-drop={drop}
      className={cn(
        "flex w-64 shrink-0 snap-start flex-col rounded-lg border bg-surface-2/60",
        drop === "allowed" ? "border-accent ring-2 ring-accent" : drop === "refused" ? "border-danger ring-2 ring-danger/50" : "border-line",
      )}
    >
      <h2 id={headingId} className="flex items-center justify-between gap-2 px-3 py-2.5 text-sm font-semibold">
        {STATUS_LABELS[status]}
        <span className="rounded-full bg-surface px-2 py-0.5 text-xs tabular-nums text-fg-muted" data-testid={`count-${status}`}>
          {loading ? "…" : tasks.length}
          <span className="sr-only"> tasks</span>
        </span>
      </h2>
      <ul className="flex max-h-[70vh] min-h-24 flex-col gap-2 overflow-y-auto px-2 pb-2" onKeyDown={rovingKeys}>
        {loading
          ? Array.from({ length: 3 }, (_, index) => (
              <li key={index}>
                <Skeleton className="h-20 w-full" />
              </li>
            ))
          : shown.map((task, index) => {
              const overdue = task.dueDate !== null && task.dueDate < today && task.status !== "CLOSED";
              return (
                <li key={task.id}>
                  <button
                    type="button"
                    {...cardProps(task)}
                    // One tab stop per column; arrow keys move between cards (useRovingCards).
                    tabIndex={index === Math.min(active, shown.length - 1) ? 0 : -1}
                    data-card-index={index}
                    onFocus={() => setActive(index)}
                    onClick={() => onOpen(task)}
                    className="w-full rounded-md border border-line bg-surface p-2.5 text-left shadow-sm select-none [-webkit-touch-callout:none] hover:border-accent data-[movable=true]:cursor-grab"
                    data-testid={`task-card-${task.id}`}
                  >
                    <span className="block text-sm leading-snug font-medium wrap-anywhere">{task.taskTitle}</span>
                    <span className="mt-1 block text-xs text-fg-muted wrap-anywhere">
                      {task.id} · <span className="font-mono">{task.asset.tagNumber}</span>
                      {task.assignee ? <> · {personName(task.assignee)}</> : null}
                    </span>
                    <span className="mt-2 flex flex-wrap items-center gap-1">
                      <PriorityBadge priority={task.priority} labels={labels} />
                      <RoleBadge role={task.assignedToRole} labels={labels} />
                      {task.dueDate ? (
                        <span className={cn("text-xs", overdue ? "font-semibold text-danger" : "text-fg-muted")}>
                          {overdue ? "Overdue · " : "Due "}
                          {format.date(task.dueDate)}
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
