"use client";
/** The user's recent queries, starred first; a star keeps a query at the top. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { formatInstant } from "./explorer-state";
import { fetchHistory, setHistoryStar, type HistoryEntry } from "./telemetry-api";

export function QueryHistory({ onPick, timeZone = "UTC" }: { onPick: (entry: HistoryEntry) => void; timeZone?: string }) {
  const queryClient = useQueryClient();
  const history = useQuery({ queryKey: ["telemetry-history"], queryFn: ({ signal }) => fetchHistory(signal), staleTime: 10_000 });
  const star = useMutation({
    mutationFn: ({ id, starred }: { id: number; starred: boolean }) => setHistoryStar(id, starred),
    // Optimistic: the star moves at once and moves back if the server refuses.
    onMutate: async ({ id, starred }) => {
      await queryClient.cancelQueries({ queryKey: ["telemetry-history"] });
      const before = queryClient.getQueryData<HistoryEntry[]>(["telemetry-history"]);
      queryClient.setQueryData<HistoryEntry[]>(["telemetry-history"], (entries) => entries?.map((e) => (e.id === id ? { ...e, starred } : e)));
      return { before };
    },
    onError: (_error, _vars, context) => queryClient.setQueryData(["telemetry-history"], context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["telemetry-history"] }),
  });

  const entries = [...(history.data ?? [])].sort((a, b) => Number(b.starred) - Number(a.starred) || b.lastRunAt.localeCompare(a.lastRunAt));

  return (
    <Card className="p-4" aria-labelledby="history-title">
      <h2 id="history-title" className="mb-2 text-base font-semibold">
        History
      </h2>
      {history.isPending ? (
        <div role="status" className="flex flex-col gap-2">
          <span className="sr-only">Loading history…</span>
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-full" />
        </div>
      ) : history.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(history.error)}
        </p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-fg-muted">Queries you run appear here.</p>
      ) : (
        <ul className="flex max-h-96 flex-col gap-1 overflow-auto" data-testid="query-history" aria-label="Recent queries">
          {entries.slice(0, 50).map((entry) => (
            <li key={entry.id} className="flex items-start gap-1">
              <button
                type="button"
                aria-pressed={entry.starred}
                aria-label={entry.starred ? "Unstar query" : "Star query"}
                className={`mt-1 shrink-0 rounded px-1 text-base leading-none ${entry.starred ? "text-warning" : "text-fg-muted"} hover:bg-surface-2`}
                onClick={() => star.mutate({ id: entry.id, starred: !entry.starred })}
              >
                {entry.starred ? "★" : "☆"}
              </button>
              <button
                type="button"
                className="min-w-0 flex-1 rounded px-1.5 py-1 text-left hover:bg-surface-2"
                onClick={() => onPick(entry)}
                title={entry.query}
              >
                <span className="block truncate font-mono text-xs">{entry.title || entry.query.replace(/\s+/g, " ")}</span>
                <span className="block text-xs text-fg-muted">{formatInstant(entry.lastRunAt, timeZone)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {star.isError && (
        <p role="alert" className="mt-2 text-xs text-danger">
          {errorMessage(star.error)}
        </p>
      )}
    </Card>
  );
}
