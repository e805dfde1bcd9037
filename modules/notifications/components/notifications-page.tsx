"use client";
/**
 * The Notifications page (docs/api.md, "Notifications"): the signed-in user's notifications, newest
 * first, all or unread only (`?show=unread`), each linking to its firing or task (following a link
 * marks it read); mark one or all read; and which kinds the user wants.
 */
import Link from "next/link";
import { useId, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { PageHeader } from "@/components/ui/page-header";
import { TableSkeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { errorMessage } from "@/lib/client/api";
import { useFormat } from "@/lib/client/format";
import { useUrlState } from "@/lib/client/url-state";
import type { TNotification } from "@/modules/notifications/contract/notifications";
import { NOTIFICATION_KIND_LABEL, NOTIFICATION_KINDS, type TNotificationKind } from "@/modules/notifications/contract/kinds";
import { useMarkRead, useNotificationPrefs, useNotifications, useSaveNotificationPrefs } from "@/modules/notifications/client/notifications";

const KIND_TAG: Record<TNotificationKind, { label: string; tone: BadgeTone }> = {
  firing: { label: "Monitor", tone: "danger" },
  assigned: { label: "Assigned", tone: "accent" },
  approval: { label: "Approval", tone: "warning" },
  decision: { label: "Decision", tone: "success" },
};

export function NotificationsPage() {
  const { get, update } = useUrlState();
  const show = get("show") === "unread" ? "unread" : "all";
  const list = useNotifications(show);
  const markRead = useMarkRead();
  const unread = list.data?.unread ?? 0;

  return (
    <div className="space-y-5">
      <PageHeader
        title="Notifications"
        description="Monitor firings of your plants, tasks assigned to you, approvals waiting for you and decisions on your requests."
        actions={
          <Button variant="secondary" disabled={unread === 0 || markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
            Mark all read
          </Button>
        }
      />
      {markRead.error ? (
        <p role="alert" className="text-sm text-danger">
          Could not mark them read: {errorMessage(markRead.error)}
        </p>
      ) : null}
      <Card aria-labelledby="notifications-list">
        <CardHeader
          id="notifications-list"
          title={list.data ? `${unread === 0 ? "No" : unread} unread` : "Your notifications"}
          actions={
            <div role="group" aria-label="Show" className="flex gap-1">
              {(["all", "unread"] as const).map((value) => (
                <Button key={value} size="sm" variant={show === value ? "primary" : "ghost"} aria-pressed={show === value} onClick={() => update({ show: value === "all" ? null : value })}>
                  {value === "all" ? "All" : "Unread only"}
                </Button>
              ))}
            </div>
          }
        />
        {list.isPending ? (
          <TableSkeleton rows={5} columns={3} />
        ) : list.error ? (
          <ErrorState error={list.error} title="Could not load your notifications" onRetry={() => void list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <EmptyState title={show === "unread" ? "Nothing unread" : "No notifications yet"}>
            {show === "unread" ? "You have read everything." : "Firings of your plants' monitors, tasks assigned to you, approvals and decisions will appear here."}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-line">
            {list.data.data.map((item) => (
              <NotificationRow key={item.id} item={item} onRead={() => markRead.mutate({ ids: [item.id] })} busy={markRead.isPending} />
            ))}
          </ul>
        )}
      </Card>
      <Preferences />
    </div>
  );
}

function NotificationRow({ item, onRead, busy }: { item: TNotification; onRead: () => void; busy: boolean }) {
  const format = useFormat();
  const tag = KIND_TAG[item.kind];
  const isUnread = item.readAt === null;
  return (
    <li className={cn("flex flex-wrap items-start gap-3 px-4 py-3", isUnread && "bg-accent-soft/40")}>
      <span aria-hidden="true" className={cn("mt-2 h-2 w-2 shrink-0 rounded-full", isUnread ? "bg-accent" : "bg-transparent")} />
      <div className="min-w-0 flex-1 basis-64">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={tag.tone}>{tag.label}</Badge>
          <span className="text-xs text-fg-muted">
            {item.plantId} · <time dateTime={item.createdAt}>{format.dateTime(item.createdAt)}</time>
            {isUnread ? <span className="sr-only"> · unread</span> : null}
          </span>
        </div>
        <Link href={item.link} onClick={isUnread ? onRead : undefined} className={cn("mt-1 block text-sm wrap-anywhere hover:underline", isUnread ? "font-semibold" : "text-fg-muted")}>
          {item.title}
        </Link>
      </div>
      {isUnread ? (
        <Button size="sm" variant="ghost" disabled={busy} onClick={onRead} aria-label={`Mark read: ${item.title}`}>
          Mark read
        </Button>
      ) : null}
    </li>
  );
}

function Preferences() {
  const prefs = useNotificationPrefs();
  const save = useSaveNotificationPrefs();
  // What the user ticked, else what is stored.
  const [ticked, setChosen] = useState<TNotificationKind[] | null>(null);
  const chosen = ticked ?? prefs.data?.kinds ?? null;
  const [saved, setSaved] = useState(false);
  const id = useId();

  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader id={`${id}-title`} title="What you are told" description="Kinds you turn off are not kept for you." />
      <CardBody>
        {prefs.isPending || chosen === null ? (
          prefs.error ? (
            <ErrorState error={prefs.error} title="Could not load your preferences" onRetry={() => void prefs.refetch()} />
          ) : (
            <TableSkeleton rows={4} columns={1} />
          )
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              setSaved(false);
              save.mutate(chosen, { onSuccess: () => setSaved(true) });
            }}
            className="space-y-3"
          >
            <fieldset className="space-y-2">
              <legend className="sr-only">Notify me about</legend>
              {NOTIFICATION_KINDS.map((kind) => (
                <label key={kind} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="h-4 w-4"
                    checked={chosen.includes(kind)}
                    onChange={(event) => {
                      setSaved(false);
                      setChosen(event.target.checked ? [...chosen, kind] : chosen.filter((other) => other !== kind));
                    }}
                  />
                  {NOTIFICATION_KIND_LABEL[kind]}
                </label>
              ))}
            </fieldset>
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" variant="primary" disabled={save.isPending}>
                Save preferences
              </Button>
              <p aria-live="polite" className={cn("text-sm", save.error ? "text-danger" : "text-fg-muted")}>
                {save.error ? `Not saved: ${errorMessage(save.error)}` : saved ? "Saved." : ""}
              </p>
            </div>
          </form>
        )}
      </CardBody>
    </Card>
  );
}
