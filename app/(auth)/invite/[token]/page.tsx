import type { Metadata } from "next";
import Link from "next/link";
import { InvitationForm } from "@/components/auth/invitation-form";
import { server } from "@/app/page-server";

export const metadata: Metadata = { title: "Your invitation", referrer: "no-referrer" };

/** An invitation link (lib/dashboard-store/invitations.ts): set a password, or connect a single sign-on account. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await server().invitedUser(token);
  const { entraId, oidcName } = server().signInChoices();
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-xl border border-line bg-surface p-8 shadow-sm">
        <h1 className="text-2xl font-semibold tracking-tight">Welcome to Plantdesk</h1>
        {user && !user.disabled ? (
          <>
            <p className="mt-2 text-sm text-fg-muted">
              Set a password for <strong className="wrap-anywhere text-fg">{user.email}</strong>
              {oidcName !== null || entraId ? ", or sign in with your company account" : ""}. This link works once.
            </p>
            <InvitationForm token={token} email={user.email} entraId={entraId} oidcName={oidcName} />
          </>
        ) : (
          <>
            <p role="alert" className="mt-4 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
              This invitation link is not valid any more: it was used, replaced or has expired. Ask an administrator for a new one.
            </p>
            <p className="mt-4 text-sm">
              <Link href="/signin" className="font-medium text-accent underline-offset-2 hover:underline">
                Go to sign-in
              </Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
