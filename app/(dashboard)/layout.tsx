import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { ROLE_PERMISSIONS } from "@/lib/auth/roles";
import { requireSignedInUser } from "@/lib/auth/session";
import { reachablePlants } from "@/lib/bff/handler";
import type { Me } from "@/lib/client/me";
import { getUpstreamClient } from "@/lib/upstream";

/**
 * Every dashboard page: signed-in users only (others go to sign-in), inside the app's frame. The
 * user's account (what `/api/me` answers) is rendered into the page, so the plant switcher and
 * the navigation appear at once instead of after a second request.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireSignedInUser();
  const upstream = await getUpstreamClient();
  const me: Me = {
    email: user.email,
    name: user.name,
    role: user.role,
    plants: reachablePlants(user, upstream),
    permissions: [...ROLE_PERMISSIONS[user.role]],
  };
  return <AppShell initialMe={me}>{children}</AppShell>;
}
