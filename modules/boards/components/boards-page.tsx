"use client";
/**
 * A plant's dashboards: every board of the plant (shared with everyone who may open it), and for
 * supervisors, engineers and admins a new board and the import of a dashboard file. A file is read
 * here only to check its size; the server validates it whole and a refused file changes nothing.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { plantPath } from "@/components/shell/nav-items";
import { errorMessage } from "@/lib/client/api";
import { dashboardKeys, dashboardsApi, useDashboards } from "@/modules/boards/client/boards";
import { useFormat } from "@/lib/client/format";
import { useCan } from "@/lib/client/me";
import { DASHBOARD_LIMITS } from "@/lib/contract/dashboard-vocabulary";
import { emptyBoard } from "./board-state";

const boardPath = (plantId: string, id: number, query = "") => `${plantPath(plantId, "dashboards")}/${id}${query}`;

export function DashboardsPage({ plantId }: { plantId: string }) {
  const format = useFormat();
  const canWrite = useCan("dashboards:write");
  const boards = useDashboards(plantId);

  return (
    <div className="space-y-5">
      <PageHeader
        title="Dashboards"
        description={
          boards.data
            ? `${format.number(boards.data.data.length)} ${boards.data.data.length === 1 ? "dashboard" : "dashboards"} shared with everyone at plant ${plantId}`
            : `Boards of telemetry panels shared with everyone at plant ${plantId}`
        }
      />
      {canWrite ? <NewBoard plantId={plantId} /> : null}
      <Card aria-labelledby="board-list-title">
        <h2 id="board-list-title" className="sr-only">
          Dashboards of {plantId}
        </h2>
        {boards.error ? (
          <ErrorState error={boards.error} title="Could not load the dashboards" onRetry={() => void boards.refetch()} />
        ) : boards.isPending ? (
          <div role="status" className="space-y-2 p-3">
            <span className="sr-only">Loading dashboards…</span>
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-16 w-full" />
            ))}
          </div>
        ) : boards.data.data.length === 0 ? (
          <EmptyState title="No dashboards yet">
            {canWrite ? "Create one above, or import a dashboard file someone exported." : "Supervisors and engineers create dashboards; they appear here."}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-line" data-testid="board-list">
            {boards.data.data.map((board) => (
              <li key={board.id}>
                <Link href={boardPath(plantId, board.id)} className="block px-4 py-3 hover:bg-surface-2 focus-visible:bg-surface-2">
                  <span className="font-medium wrap-anywhere">{board.title}</span>
                  {board.description ? <span className="mt-0.5 block text-sm text-fg-muted wrap-anywhere">{board.description}</span> : null}
                  <span className="mt-0.5 block text-xs text-fg-muted">
                    {format.number(board.panelCount)} {board.panelCount === 1 ? "panel" : "panels"} · changed {format.dateTime(board.updatedAt)} by {board.updatedBy}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function NewBoard({ plantId }: { plantId: string }) {
  const router = useRouter();
  const client = useQueryClient();
  const [title, setTitle] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const opened = (id: number) => {
    void client.invalidateQueries({ queryKey: dashboardKeys.all(plantId) });
    router.push(boardPath(plantId, id, "?edit=1"));
  };
  const create = useMutation({
    mutationFn: () => dashboardsApi.create(plantId, emptyBoard(title.trim())),
    onSuccess: (board) => opened(board.id),
    onError: (error) => setProblem(errorMessage(error)),
  });
  const importFile = useMutation({
    mutationFn: async (file: File) => {
      if (file.size > DASHBOARD_LIMITS.maxImportBytes) {
        throw new Error(`it is ${kib(file.size)}, and a dashboard file is at most ${kib(DASHBOARD_LIMITS.maxImportBytes)}.`);
      }
      return dashboardsApi.importFile(plantId, await file.text());
    },
    onSuccess: (board) => opened(board.id),
    onError: (error) => setProblem(`The file was not imported: ${errorMessage(error)}`),
    onSettled: () => {
      if (fileInput.current) fileInput.current.value = "";
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!title.trim()) return setProblem("Give the dashboard a title.");
    create.mutate();
  };
  return (
    <Card className="p-4">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <Field label="New dashboard" className="min-w-0 flex-1 basis-56">
          {(control) => <Input {...control} value={title} maxLength={120} placeholder="e.g. Line 2 at a glance" onChange={(event) => setTitle(event.target.value)} />}
        </Field>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create"}
        </Button>
        <div className="flex flex-col gap-1">
          <label htmlFor={fileId} className="text-sm font-medium">
            Import a dashboard file
          </label>
          <input
            ref={fileInput}
            id={fileId}
            type="file"
            accept="application/json,.json"
            className="max-w-full text-sm file:mr-2 file:h-10 file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-fg"
            onChange={(event) => {
              setProblem(null);
              const file = event.target.files?.[0];
              if (file) importFile.mutate(file);
            }}
          />
        </div>
      </form>
      {problem ? (
        <p role="alert" className="mt-3 text-sm font-medium text-danger wrap-anywhere">
          {problem}
        </p>
      ) : importFile.isPending ? (
        <p role="status" className="mt-3 text-sm text-fg-muted">
          Importing…
        </p>
      ) : null}
    </Card>
  );
}

const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`;
