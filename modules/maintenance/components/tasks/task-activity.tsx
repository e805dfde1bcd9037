"use client";
/**
 * A task's activity log: its creation and every move, as the service keeps them (docs/api.md §3,
 * task history) — who, when (in the reader's language and time zone), from → to, and the remark.
 * Re-read with the task list after every move (the history's query key sits below the list's).
 */
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage } from "@/lib/client/api";
import { useFormat } from "@/lib/client/format";
import { useTaskHistory } from "@/modules/maintenance/client/maintenance";
import { describeActor } from "./actor";
import { STATUS_LABELS } from "./status";

export function TaskActivity({ plantId, taskId }: { plantId: string; taskId: string }) {
  const history = useTaskHistory(plantId, taskId);
  const format = useFormat();

  if (history.isPending) {
    return (
      <div role="status" className="space-y-2">
        <span className="sr-only">Loading the activity…</span>
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  }
  if (history.error) {
    if (history.error instanceof ApiError && history.error.code === "FEATURE_UNAVAILABLE") {
      return <p className="text-sm text-fg-muted">This maintenance service does not keep task history.</p>;
    }
    return (
      <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
        <span>Could not load the activity: {errorMessage(history.error)}</span>
        <Button size="sm" onClick={() => void history.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (history.data.length === 0) return <p className="text-sm text-fg-muted">No activity recorded for this task yet.</p>;

  return (
    <>
      <ol className="relative space-y-4 border-l border-line pl-4 text-sm" data-testid="task-activity">
        {history.data.map((step, index) => {
          const actor = describeActor(step);
          return (
            <li key={`${step.at}-${index}`} className="relative" data-testid="activity-entry">
              <span aria-hidden="true" className="absolute top-1.5 -left-[21px] h-2.5 w-2.5 rounded-full border-2 border-surface bg-accent" />
              <p className="font-medium">
                {step.from === null ? (
                  <>Created · {STATUS_LABELS[step.to]}</>
                ) : step.from === step.to ? (
                  // An edit (assignee, due date…): the status stayed; the remark says what changed.
                  <>Edited · {STATUS_LABELS[step.to]}</>
                ) : (
                  <>
                    {STATUS_LABELS[step.from]} <span aria-hidden="true">→</span>
                    <span className="sr-only">to</span> {STATUS_LABELS[step.to]}
                  </>
                )}
              </p>
              <p className="text-fg-muted">
                <time dateTime={step.at}>{format.dateTime(step.at)}</time> · by <span className="font-medium text-fg">{actor.name}</span>
                {actor.detail ? <span className="wrap-anywhere"> ({actor.detail})</span> : null}
              </p>
              {step.remark ? (
                <blockquote className="mt-1.5 rounded-md border-l-2 border-accent bg-surface-2 px-3 py-1.5 whitespace-pre-line wrap-anywhere">
                  <span className="sr-only">Remark: </span>
                  {step.remark}
                </blockquote>
              ) : null}
            </li>
          );
        })}
      </ol>
      <p role="status" className="mt-2 min-h-4 text-xs text-fg-muted">
        {history.isFetching ? "Updating…" : ""}
      </p>
    </>
  );
}
