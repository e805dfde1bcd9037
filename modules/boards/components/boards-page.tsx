"use client";
/**
 * A plant's dashboards: the boards the user may open (docs/boards.md: their own, those shared with
 * their role or the plant), by folder (`?folder=` in the URL), and for supervisors, engineers and
 * admins new folders, a new board and the import of a dashboard file. A file is read
 * here only to check its size; the server validates it whole and a refused file changes nothing.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Field, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { plantPath } from "@/components/shell/nav-items";
import { errorMessage } from "@/lib/client/api";
import { dashboardKeys, dashboardsApi, useDashboards } from "@/modules/boards/client/boards";
import { useFormat } from "@/lib/client/format";
import { useCan } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import type { TBoardFolder, TDashboardSummary } from "@/modules/boards/contract/boards";
import { sharingBadge } from "./sharing";
import { DASHBOARD_LIMITS } from "@/lib/contract/dashboard-vocabulary";
import { emptyBoard } from "./board-state";

const boardPath = (plantId: string, id: number, query = "") => `${plantPath(plantId, "dashboards")}/${id}${query}`;

/** `?folder=<id>` one folder, `?folder=none` the boards in none; absent: every board. */
type FolderFilter = number | "none" | null;
const folderFilterOf = (value: string): FolderFilter => (value === "none" ? "none" : /^\d{1,15}$/.test(value) ? Number(value) : null);

export function DashboardsPage({ plantId }: { plantId: string }) {
  const format = useFormat();
  const canWrite = useCan("dashboards:write");
  const boards = useDashboards(plantId);
  const { get } = useUrlState();
  const filter = folderFilterOf(get("folder"));
  const folders = boards.data?.folders ?? [];
  const current = typeof filter === "number" ? folders.find((folder) => folder.id === filter) : undefined;
  const shown = (boards.data?.data ?? []).filter((board) => (filter === null ? true : filter === "none" ? board.folderId === null : board.folderId === filter));
  const folderName = new Map(folders.map((folder) => [folder.id, folder.name]));
  const listTitle = filter === null ? "All dashboards" : filter === "none" ? "Not in a folder" : (current?.name ?? "Folder");

  return (
    <div className="space-y-5">
      <PageHeader
        title="Dashboards"
        description={
          boards.data
            ? `${format.number(boards.data.data.length)} ${boards.data.data.length === 1 ? "dashboard" : "dashboards"} you can open at plant ${plantId}: yours, and those shared with your role or the whole plant`
            : `Boards of telemetry panels at plant ${plantId}`
        }
      />
      {canWrite ? <NewBoard plantId={plantId} folderId={typeof filter === "number" && current ? filter : null} folderName={current?.name} /> : null}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <FolderSidebar plantId={plantId} filter={filter} boards={boards.data?.data ?? []} folders={folders} canWrite={canWrite} loading={boards.isPending} />
        <Card aria-labelledby="board-list-title" className="min-w-0">
          <h2 id="board-list-title" className="border-b border-line px-4 py-3 text-base font-semibold wrap-anywhere">
            {listTitle}
          </h2>
          {typeof filter === "number" && current && canWrite ? <FolderActions plantId={plantId} folder={current} count={shown.length} /> : null}
          {boards.error ? (
            <ErrorState error={boards.error} title="Could not load the dashboards" onRetry={() => void boards.refetch()} />
          ) : boards.isPending ? (
            <div role="status" className="space-y-2 p-3">
              <span className="sr-only">Loading dashboards…</span>
              {Array.from({ length: 3 }, (_, index) => (
                <Skeleton key={index} className="h-16 w-full" />
              ))}
            </div>
          ) : typeof filter === "number" && !current ? (
            <EmptyState title="No such folder">It may have been deleted; choose another folder.</EmptyState>
          ) : shown.length === 0 ? (
            <EmptyState title={filter === null ? "No dashboards yet" : "No dashboards here"}>
              {canWrite ? (filter === null ? "Create one above, or import a dashboard file someone exported." : "Create one above, or move a dashboard here from its settings.") : "Supervisors and engineers create dashboards; they appear here."}
            </EmptyState>
          ) : (
            <ul className="divide-y divide-line" data-testid="board-list">
              {shown.map((board) => (
                <li key={board.id}>
                  <Link href={boardPath(plantId, board.id)} className="block px-4 py-3 hover:bg-surface-2 focus-visible:bg-surface-2">
                    <span className="font-medium wrap-anywhere">{board.title}</span>
                    {board.description ? <span className="mt-0.5 block text-sm text-fg-muted wrap-anywhere">{board.description}</span> : null}
                    <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-fg-muted">
                      <Badge tone={board.sharing.visibility === "private" ? "warning" : board.sharing.visibility === "role" ? "accent" : "neutral"}>{sharingBadge(board.sharing)}</Badge>
                      {!board.canEdit ? <Badge>Read-only</Badge> : null}
                      {filter === null && board.folderId !== null && folderName.has(board.folderId) ? <span className="wrap-anywhere">in {folderName.get(board.folderId)} ·</span> : null}
                      <span className="wrap-anywhere">
                        {format.number(board.panelCount)} {board.panelCount === 1 ? "panel" : "panels"} · owned by {board.owner} · changed {format.dateTime(board.updatedAt)} by {board.updatedBy}
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}

function FolderSidebar({
  plantId,
  filter,
  boards,
  folders,
  canWrite,
  loading,
}: {
  plantId: string;
  filter: FolderFilter;
  boards: TDashboardSummary[];
  folders: TBoardFolder[];
  canWrite: boolean;
  loading: boolean;
}) {
  const format = useFormat();
  const base = plantPath(plantId, "dashboards");
  const count = (folderId: number | null) => boards.filter((board) => board.folderId === folderId).length;
  const entries: { key: string; href: string; label: string; n: number; active: boolean }[] = [
    { key: "all", href: base, label: "All dashboards", n: boards.length, active: filter === null },
    ...folders.map((folder) => ({ key: String(folder.id), href: `${base}?folder=${folder.id}`, label: folder.name, n: count(folder.id), active: filter === folder.id })),
    { key: "none", href: `${base}?folder=none`, label: "Not in a folder", n: count(null), active: filter === "none" },
  ];
  return (
    <Card as="div" className="h-fit p-3">
      <nav aria-label="Folders">
        <h2 className="mb-2 px-2 text-sm font-semibold">Folders</h2>
        {loading ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <ul className="space-y-0.5" data-testid="folder-list">
            {entries.map((entry) => (
              <li key={entry.key}>
                <Link
                  href={entry.href}
                  aria-current={entry.active ? "page" : undefined}
                  className={`flex items-center justify-between gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-surface-2 focus-visible:bg-surface-2 ${entry.active ? "bg-surface-2 font-semibold" : ""}`}
                >
                  <span className="min-w-0 wrap-anywhere">{entry.label}</span>
                  <span className="shrink-0 text-xs text-fg-muted">{format.number(entry.n)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </nav>
      {canWrite ? <NewFolder plantId={plantId} /> : null}
    </Card>
  );
}

function NewFolder({ plantId }: { plantId: string }) {
  const client = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => dashboardsApi.createFolder(plantId, name.trim()),
    onSuccess: (folder) => {
      setName("");
      void client.invalidateQueries({ queryKey: dashboardKeys.all(plantId) });
      router.push(`${plantPath(plantId, "dashboards")}?folder=${folder.id}`);
    },
    onError: (error) => setProblem(errorMessage(error)),
  });
  return (
    <form
      className="mt-3 space-y-2 border-t border-line pt-3"
      onSubmit={(event) => {
        event.preventDefault();
        setProblem(null);
        if (!name.trim()) return setProblem("Give the folder a name.");
        create.mutate();
      }}
    >
      <Field label="New folder">{(control) => <Input {...control} value={name} maxLength={80} placeholder="e.g. Line 2" onChange={(event) => setName(event.target.value)} />}</Field>
      <Button type="submit" size="sm" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create folder"}
      </Button>
      {problem ? (
        <p role="alert" className="text-sm font-medium text-danger wrap-anywhere">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/** Rename the folder, or delete it when it is empty (the server counts boards the user cannot see too). */
function FolderActions({ plantId, folder, count }: { plantId: string; folder: TBoardFolder; count: number }) {
  const client = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState(folder.name);
  const [problem, setProblem] = useState<string | null>(null);
  const done = () => void client.invalidateQueries({ queryKey: dashboardKeys.all(plantId) });
  const rename = useMutation({ mutationFn: () => dashboardsApi.renameFolder(plantId, folder.id, name.trim()), onSuccess: done, onError: (error) => setProblem(errorMessage(error)) });
  const remove = useMutation({
    mutationFn: () => dashboardsApi.deleteFolder(plantId, folder.id),
    onSuccess: () => {
      done();
      router.push(plantPath(plantId, "dashboards"));
    },
    onError: (error) => setProblem(errorMessage(error)),
  });
  return (
    <div className="border-b border-line px-4 py-3">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setProblem(null);
          if (!name.trim()) return setProblem("A folder needs a name.");
          rename.mutate();
        }}
      >
        <Field label="Folder name" className="min-w-0 flex-1 basis-48">
          {(control) => <Input {...control} value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <Button type="submit" size="sm" disabled={rename.isPending || name.trim() === folder.name}>
          Rename
        </Button>
        <Button size="sm" variant="danger" disabled={remove.isPending} onClick={() => (setProblem(null), remove.mutate())} title={count > 0 ? "Move its dashboards out first" : undefined}>
          Delete folder
        </Button>
      </form>
      {problem ? (
        <p role="alert" className="mt-2 text-sm font-medium text-danger wrap-anywhere">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function NewBoard({ plantId, folderId, folderName }: { plantId: string; folderId: number | null; folderName?: string }) {
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
    // In the folder on show: made, then moved there (a new board is shared with the plant until its owner says otherwise).
    mutationFn: async () => {
      const board = await dashboardsApi.create(plantId, emptyBoard(title.trim()));
      return folderId === null ? board : dashboardsApi.place(plantId, board.id, { folderId, sharing: board.sharing });
    },
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
        <Field label="New dashboard" hint={folderName ? `In the folder ${folderName}` : undefined} className="min-w-0 flex-1 basis-56">
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
