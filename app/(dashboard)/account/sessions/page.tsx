import type { Metadata } from "next";
import { Suspense } from "react";
import { PageSkeleton } from "@/components/ui/skeleton";
import { requireSignedInUser } from "@/app/page-server";
import { SessionsPage } from "@/modules/account/components/sessions-page";

export const metadata: Metadata = { title: "Sessions" };

/** The signed-in user's own sessions, every role (the `/api/` routes read the session's user). */
export default async function Sessions() {
  await requireSignedInUser();
  return (
    <Suspense fallback={<PageSkeleton label="Loading your sessions" />}>
      <SessionsPage />
    </Suspense>
  );
}
