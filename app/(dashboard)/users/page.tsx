import type { Metadata } from "next";
import { Suspense } from "react";
import { UserAdmin } from "@/components/users/user-admin";
import { PageSkeleton } from "@/components/ui/skeleton";
import { EmptyState } from "@/components/ui/states";
import { hasPermission } from "@/lib/contract/roles";
import { requireSignedInUser } from "@/app/page-server";

export const metadata: Metadata = { title: "Users" };

/** Users of the dashboard: administrators only, checked here on the server (and again by `/api/users…`). */
export default async function UsersPage() {
  const user = await requireSignedInUser();
  if (!hasPermission(user.role, "users:manage")) {
    return (
      <EmptyState title="Administrators only">
        Only administrators may add, change or disable users. Your role is <strong>{user.role}</strong>.
      </EmptyState>
    );
  }
  return (
    <Suspense fallback={<PageSkeleton label="Loading users" />}>
      <UserAdmin selfId={user.id} />
    </Suspense>
  );
}
