"use client";
/**
 * A board's folder and who sees it (docs/boards.md), for its owner and admins while it is edited.
 * Applied at once and apart from the draft: it is not a new version of the board.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/field";
import { errorMessage } from "@/lib/client/api";
import { ROLES, type Role } from "@/lib/contract/roles";
import type { TBoardVisibility } from "@/lib/contract/dashboard-vocabulary";
import type { TDashboard } from "@/modules/boards/contract/boards";
import { dashboardKeys, dashboardsApi, useDashboards } from "@/modules/boards/client/boards";
import { ROLE_PLURAL } from "./sharing";

const VISIBILITY_OPTIONS: { value: TBoardVisibility; label: string }[] = [
  { value: "private", label: "Only me (private)" },
  { value: "role", label: "One role of the plant" },
  { value: "plant", label: "Everyone at the plant" },
];
const ROLE_OPTIONS = ROLES.filter((role) => role !== "admin").map((role) => ({ value: role, label: `The plant's ${ROLE_PLURAL[role]}` }));

export function BoardPlacement({ plantId, board }: { plantId: string; board: TDashboard }) {
  const client = useQueryClient();
  const list = useDashboards(plantId);
  const [folder, setFolder] = useState(board.folderId === null ? "" : String(board.folderId));
  const [visibility, setVisibility] = useState<TBoardVisibility>(board.sharing.visibility);
  const [role, setRole] = useState<Role>(board.sharing.role ?? "planner");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const place = useMutation({
    mutationFn: () => dashboardsApi.place(plantId, board.id, { folderId: folder ? Number(folder) : null, sharing: { visibility, role: visibility === "role" ? role : null } }),
    onSuccess: (placed) => {
      client.setQueryData(dashboardKeys.one(plantId, board.id), placed);
      void client.invalidateQueries({ queryKey: dashboardKeys.all(plantId) });
      setMessage({ ok: true, text: "Folder and sharing saved." });
    },
    onError: (error) => setMessage({ ok: false, text: `Not saved: ${errorMessage(error)}` }),
  });
  const folders = list.data?.folders ?? [];
  return (
    <fieldset className="space-y-3 rounded-md border border-line p-3">
      <legend className="px-1 text-sm font-semibold">Folder and sharing</legend>
      <div className="grid grid-cols-1 items-end gap-3 md:grid-cols-3">
        <Field label="Folder" hint={list.isError ? "Could not load the folders" : undefined}>
          {(control) => (
            <Select
              {...control}
              value={folder}
              onChange={(event) => setFolder(event.target.value)}
              options={[{ value: "", label: "No folder" }, ...folders.map((item) => ({ value: String(item.id), label: item.name }))]}
            />
          )}
        </Field>
        <Field label="Who sees it">
          {(control) => <Select {...control} value={visibility} options={VISIBILITY_OPTIONS} onChange={(event) => setVisibility(event.target.value as TBoardVisibility)} />}
        </Field>
        {visibility === "role" ? (
          <Field label="Role" hint="Admins see it too">
            {(control) => <Select {...control} value={role} options={ROLE_OPTIONS} onChange={(event) => setRole(event.target.value as Role)} />}
          </Field>
        ) : null}
      </div>
      <p className="text-xs text-fg-muted">Only the owner ({board.owner}) and admins change, move or delete this dashboard; everyone who sees it may read and export it.</p>
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => place.mutate()} disabled={place.isPending}>
          {place.isPending ? "Applying…" : "Apply folder and sharing"}
        </Button>
        <p role={message && !message.ok ? "alert" : "status"} className={message && !message.ok ? "text-sm font-medium text-danger" : "text-sm text-fg-muted"}>
          {message?.text ?? ""}
        </p>
      </div>
    </fieldset>
  );
}
