import type { ReactNode } from "react";
import { WaitingForAccess } from "@/components/auth/waiting-for-access";
import { AppShell } from "@/components/shell/app-shell";
import { requireSignedInUser, server } from "@/app/page-server";

/**
 * Every dashboard page: signed-in users only (others go to sign-in), inside the app's frame. The
 * user's account (what `/api/me` answers) is rendered into the page, so the plant switcher and
 * the navigation appear at once instead of after a second request. A user without any plant (a
 * first single sign-on an admin has not granted yet) sees "waiting for access" instead.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireSignedInUser();
  if (user.role !== "admin" && user.plants !== "*" && user.plants.length === 0) return <WaitingForAccess name={user.name} email={user.email} />;
  return <AppShell initialMe={await server().describeUser(user)}>{children}</AppShell>;
}
