import type { Metadata } from "next";
import { Suspense } from "react";
import { PageSkeleton } from "@/components/ui/skeleton";
import { requireSignedInUser } from "@/app/page-server";
import { NotificationsPage } from "@/modules/notifications/components/notifications-page";

export const metadata: Metadata = { title: "Notifications" };

/** The signed-in user's notification centre (its own rows only: the `/api/` routes read the session's user). */
export default async function Notifications() {
  await requireSignedInUser();
  return (
    <Suspense fallback={<PageSkeleton label="Loading your notifications" />}>
      <NotificationsPage />
    </Suspense>
  );
}
