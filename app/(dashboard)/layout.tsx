import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { requireSignedInUser } from "@/lib/auth/session";
import { describeUser } from "@/lib/bff/handler";
import { getUpstream } from "@/lib/upstream";

/**
 * Every dashboard page: signed-in users only (others go to sign-in), inside the app's frame. The
 * user's account (what `/api/me` answers) is rendered into the page, so the plant switcher and
 * the navigation appear at once instead of after a second request.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireSignedInUser();
  return <AppShell initialMe={describeUser(user, await getUpstream())}>{children}</AppShell>;
}
