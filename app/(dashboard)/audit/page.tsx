import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLog } from "@/components/audit/audit-log";
import { PageSkeleton } from "@/components/ui/skeleton";
import { EmptyState } from "@/components/ui/states";
import { hasPermission } from "@/lib/contract/roles";
import { requireSignedInUser } from "@/app/page-server";

export const metadata: Metadata = { title: "Audit log" };

/** The audit log: administrators only, checked here on the server (and again by `/api/audit`). */
export default async function AuditPage() {
  const user = await requireSignedInUser();
  if (!hasPermission(user.role, "audit:read")) {
    return (
      <EmptyState title="Administrators only">
        The audit log records every write and sign-in; only administrators may read it. Your role is <strong>{user.role}</strong>.
      </EmptyState>
    );
  }
  return (
    <Suspense fallback={<PageSkeleton label="Loading the audit log" />}>
      <AuditLog />
    </Suspense>
  );
}
