"use client";
/**
 * The bell in the app shell: a link to the Notifications page whose accessible name carries the
 * unread count ("Notifications, 3 unread"); the count is polled cheaply (see ../client).
 */
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { useNotificationSummary } from "@/modules/notifications/client/notifications";

export function NotificationBell() {
  const summary = useNotificationSummary();
  const unread = summary.data?.unread ?? 0;
  const label = summary.data ? `Notifications, ${unread === 0 ? "none" : unread} unread` : "Notifications";
  return (
    <Link href="/notifications" aria-label={label} title={label} className="relative rounded-md p-2 text-fg-muted hover:bg-surface-2 hover:text-fg">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 ? (
        <span aria-hidden="true" className={cn("absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-danger px-1 text-center text-[11px] leading-5 font-semibold text-white")}>
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
