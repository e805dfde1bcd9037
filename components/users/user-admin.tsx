"use client";
/**
 * The administrators' Users page: everyone who may sign in, with role, plants, state, last sign-in
 * and open sessions; add a user (who gets an invitation link, shown once), change a role or plants,
 * disable or enable, sign out everywhere, make a new invitation link. The search and the user
 * being edited are in the URL (`?q=`, `?edit=<id>`). The server applies the rules (the same as the
 * operator CLI's) and answers refusals in words, shown beside the form that caused them.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { ROLES, type Role } from "@/lib/contract/roles";
import { apiFetch, apiGet, apiSend, errorMessage } from "@/lib/client/api";
import { useFormat } from "@/lib/client/format";
import { useMe } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import { apiPath } from "@/lib/contract/api";
import type { TInvitation, TUserCreated, TUserRecord } from "@/lib/contract/dashboard";

/** The per-user actions of the users table, by their route in the contract. */
type UserAction = "enableUser" | "disableUser" | "endUserSessions" | "inviteUser";

const ROLE_LABELS: Record<Role, string> = { planner: "Planner", supervisor: "Supervisor", engineer: "Engineer", admin: "Administrator" };
const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
const usersKey = ["users"] as const;

type Plants = "*" | string[];

/** Every plant, or a choice of the plants this dashboard serves. */
function PlantPicker({ value, onChange, plants, legend }: { value: Plants; onChange: (value: Plants) => void; plants: { id: string; name: string }[]; legend: string }) {
  const all = value === "*";
  const chosen = all ? [] : value;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">{legend}</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={all} onChange={(event) => onChange(event.target.checked ? "*" : [])} className="h-4 w-4" />
        Every plant, also those added later
      </label>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {plants.map((plant) => (
          <label key={plant.id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              disabled={all}
              checked={all || chosen.includes(plant.id)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, plant.id] : chosen.filter((id) => id !== plant.id))}
              className="h-4 w-4"
            />
            {plant.name} ({plant.id})
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The link a new or re-invited user opens, shown once with a copy button. */
function InvitationNotice({ email, invitation, onClose }: { email: string; invitation: TInvitation; onClose: () => void }) {
  const format = useFormat();
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="rounded-lg border border-line bg-surface-2 p-4">
      <p className="font-medium">Invitation link for {email}</p>
      <p className="mt-1 text-sm text-fg-muted">
        Send this link to {email}: it lets them set a password (or connect their company sign-in) once, until {format.dateTime(invitation.expiresAt)}. It is shown only now.
      </p>
      <p className="mt-2 break-all rounded bg-surface p-2 font-mono text-sm" data-testid="invitation-url">
        {invitation.url}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="primary"
          onClick={() => {
            void navigator.clipboard?.writeText(invitation.url).then(() => setCopied(true), () => setCopied(false));
          }}
        >
          {copied ? "Copied" : "Copy link"}
        </Button>
        <Button size="sm" onClick={onClose}>
          Done
        </Button>
      </div>
    </div>
  );
}

function AddUserForm({ plants, onAdded }: { plants: { id: string; name: string }[]; onAdded: (created: TUserCreated) => void }) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>("planner");
  const [chosen, setChosen] = useState<Plants>([]);
  const [problem, setProblem] = useState<{ field: string | null; message: string } | null>(null);
  const add = useMutation({
    mutationFn: (body: unknown) => apiSend<TUserCreated>("POST", apiPath("createUser"), body),
    onSuccess: (created) => {
      setProblem(null);
      void queryClient.invalidateQueries({ queryKey: usersKey });
      onAdded(created);
    },
    onError: (error) => setProblem({ field: fieldOf(error), message: errorMessage(error) }),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    if (!email) return setProblem({ field: "email", message: "Enter the new user's e-mail address." });
    if (chosen !== "*" && chosen.length === 0) return setProblem({ field: "plants", message: "Choose at least one plant, or every plant." });
    const name = String(form.get("name") ?? "").trim();
    add.mutate({ email, ...(name ? { name } : {}), role, plants: chosen });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Add a user">
      {problem ? (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {problem.message}
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-3">
        <Field label="E-mail" error={problem?.field === "email" ? problem.message : undefined}>
          {(control) => <Input {...control} name="email" type="email" autoComplete="off" maxLength={254} required />}
        </Field>
        <Field label="Name" hint="Optional: taken from the e-mail address otherwise.">
          {(control) => <Input {...control} name="name" maxLength={120} autoComplete="off" />}
        </Field>
        <Field label="Role">
          {(control) => <Select {...control} value={role} onChange={(event) => setRole(event.target.value as Role)} options={ROLE_OPTIONS} />}
        </Field>
      </div>
      <PlantPicker legend="Plants" value={chosen} onChange={setChosen} plants={plants} />
      <div>
        <Button type="submit" variant="primary" disabled={add.isPending}>
          {add.isPending ? "Adding…" : "Add user and make invitation link"}
        </Button>
      </div>
    </form>
  );
}

function fieldOf(error: unknown): string | null {
  const data = (error as { data?: { field?: string }[] }).data;
  return Array.isArray(data) && typeof data[0]?.field === "string" ? data[0].field : null;
}

function EditUser({ user, plants, onClose }: { user: TUserRecord; plants: { id: string; name: string }[]; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>(user.role);
  const [chosen, setChosen] = useState<Plants>(user.plants);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => apiSend<TUserRecord>("PATCH", apiPath("updateUser", { userId: user.id }), { role, plants: chosen }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: usersKey });
      onClose();
    },
    onError: (error) => setProblem(errorMessage(error)),
  });
  return (
    <form
      className="mt-3 flex flex-col gap-4 border-t border-line pt-3"
      aria-label={`Change ${user.email}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen !== "*" && chosen.length === 0) return setProblem("Choose at least one plant, or every plant.");
        save.mutate();
      }}
    >
      {problem ? (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {problem}
        </p>
      ) : null}
      <Field label="Role" className="max-w-xs">
        {(control) => <Select {...control} value={role} onChange={(event) => setRole(event.target.value as Role)} options={ROLE_OPTIONS} />}
      </Field>
      <PlantPicker legend="Plants" value={chosen} onChange={setChosen} plants={plants} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save changes"}
        </Button>
        <Button type="button" size="sm" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function UserRow({
  user,
  self,
  editing,
  plants,
  onEdit,
  onInvited,
}: {
  user: TUserRecord;
  self: boolean;
  editing: boolean;
  plants: { id: string; name: string }[];
  onEdit: (open: boolean) => void;
  onInvited: (invitation: TInvitation) => void;
}) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useMutation({
    mutationFn: (route: UserAction) => apiFetch<unknown>(apiPath(route, { userId: user.id }), { method: "POST" }),
    onSuccess: (answer, route) => {
      setProblem(null);
      void queryClient.invalidateQueries({ queryKey: usersKey });
      if (route === "inviteUser") onInvited(answer as TInvitation);
      if (route === "endUserSessions") setDone(`Signed out of ${(answer as { ended: number }).ended} session(s).`);
    },
    onError: (error) => setProblem(errorMessage(error)),
  });
  const waiting = user.role !== "admin" && user.plants !== "*" && user.plants.length === 0;
  const headingId = useId();
  return (
    <li className="rounded-lg border border-line bg-surface p-4" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p id={headingId} className="font-medium">
            {user.name} {self ? <span className="text-sm text-fg-muted">(you)</span> : null}
          </p>
          <p className="wrap-anywhere text-sm text-fg-muted">{user.email}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Badge tone="accent">{ROLE_LABELS[user.role]}</Badge>
            {user.disabled ? <Badge tone="danger">Disabled</Badge> : waiting ? <Badge tone="warning">Waiting for access</Badge> : <Badge tone="success">Active</Badge>}
            {user.identities > 0 ? <Badge>Single sign-on</Badge> : null}
            {user.hasPassword ? <Badge>Password</Badge> : null}
          </div>
          <p className="mt-2 text-sm">
            Plants: {user.plants === "*" ? "every plant" : user.plants.length === 0 ? "none yet" : user.plants.join(", ")}
          </p>
          <p className="text-sm text-fg-muted">
            Last sign-in: {user.lastSignInAt ? format.dateTime(user.lastSignInAt) : "never"} · {user.activeSessions} open session{user.activeSessions === 1 ? "" : "s"}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => onEdit(!editing)} aria-expanded={editing}>
            {editing ? "Close" : "Change role or plants"}
          </Button>
          {user.disabled ? (
            <Button size="sm" onClick={() => action.mutate("enableUser")} disabled={action.isPending}>
              Enable
            </Button>
          ) : (
            <>
              {!self ? (
                <Button size="sm" variant="danger" onClick={() => action.mutate("disableUser")} disabled={action.isPending}>
                  Disable
                </Button>
              ) : null}
              <Button size="sm" onClick={() => action.mutate("endUserSessions")} disabled={action.isPending || user.activeSessions === 0}>
                Sign out everywhere
              </Button>
              <Button size="sm" onClick={() => action.mutate("inviteUser")} disabled={action.isPending}>
                New invitation link
              </Button>
            </>
          )}
        </div>
      </div>
      {problem ? (
        <p role="alert" className="mt-3 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {problem}
        </p>
      ) : null}
      {done ? (
        <p role="status" className="mt-3 text-sm text-fg-muted">
          {done}
        </p>
      ) : null}
      {editing ? <EditUser user={user} plants={plants} onClose={() => onEdit(false)} /> : null}
    </li>
  );
}

export function UserAdmin({ selfId }: { selfId: number }) {
  const { get, update } = useUrlState();
  const me = useMe();
  const query = get("q").trim().toLowerCase();
  const editing = Number(get("edit")) || null;
  const [notice, setNotice] = useState<{ email: string; invitation: TInvitation } | null>(null);
  const users = useQuery({
    queryKey: usersKey,
    queryFn: ({ signal }) => apiGet<{ data: TUserRecord[] }>(apiPath("listUsers"), undefined, signal),
  });
  const plants = (me.data?.plants ?? []).map((plant) => ({ id: plant.id, name: plant.name }));
  const shown = (users.data?.data ?? []).filter((user) => !query || user.email.includes(query) || user.name.toLowerCase().includes(query));

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Users" description="Who may sign in, with which role and plants. Every change is written to the audit log." />
      {notice ? <InvitationNotice email={notice.email} invitation={notice.invitation} onClose={() => setNotice(null)} /> : null}
      <Card aria-labelledby="add-user">
        <CardHeader id="add-user" title="Add a user" description="The new user gets an invitation link to set their password or connect their company sign-in." />
        <CardBody>
          <AddUserForm plants={plants} onAdded={(created) => setNotice({ email: created.user.email, invitation: created.invitation })} />
        </CardBody>
      </Card>
      <section aria-labelledby="user-list" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="user-list" className="text-lg font-semibold">
            {users.data ? `${users.data.data.length} user${users.data.data.length === 1 ? "" : "s"}` : "Users"}
          </h2>
          <Field label="Search by name or e-mail" className="w-full max-w-xs">
            {(control) => <Input {...control} type="search" defaultValue={get("q")} onChange={(event) => update({ q: event.target.value || null }, { replace: true })} />}
          </Field>
        </div>
        {users.isPending ? (
          <p className="text-sm text-fg-muted" role="status">
            Loading users…
          </p>
        ) : users.isError ? (
          <ErrorState error={users.error} title="Could not load the users" onRetry={() => void users.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState title={query ? "No user matches this search" : "No users yet"} />
        ) : (
          <ul className="flex flex-col gap-3">
            {shown.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                self={user.id === selfId}
                editing={editing === user.id}
                plants={plants}
                onEdit={(open) => update({ edit: open ? user.id : null }, { replace: true })}
                onInvited={(invitation) => setNotice({ email: user.email, invitation })}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
