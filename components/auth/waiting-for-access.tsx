"use client";
import { Button } from "@/components/ui/button";
import { signOut } from "./sign-out";

/**
 * What a person sees after their first single sign-on, until an admin grants them a role and
 * plants: who they are signed in as, what happens next, and a way out. Nothing of any plant.
 */
export function WaitingForAccess({ name, email }: { name: string; email: string }) {
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-md rounded-xl border border-line bg-surface p-8 shadow-sm">
        <h1 className="text-2xl font-semibold tracking-tight">Waiting for access</h1>
        <p className="mt-3 text-fg">
          Welcome, {name}. You are signed in as <strong className="wrap-anywhere">{email}</strong>, but no plants have been given to you yet.
        </p>
        <p className="mt-3 text-sm text-fg-muted">
          An administrator of Plantdesk decides your role and plants under <em>Users</em>. Once they have, reload this page.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Button variant="primary" onClick={() => window.location.reload()}>
            Check again
          </Button>
          <Button onClick={() => void signOut()}>Sign out</Button>
        </div>
      </div>
    </main>
  );
}
