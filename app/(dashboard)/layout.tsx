import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { requireSignedInUser } from "@/lib/auth/session";

/** Every dashboard page: signed-in users only (others go to sign-in), inside the app's frame. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  await requireSignedInUser();
  return <AppShell>{children}</AppShell>;
}
