"use client";

import { signOut } from "next-auth/react";
import type { ReactNode } from "react";

/** Ends the session (the cookie is cleared by next-auth) and returns to the sign-in page. */
export function SignOutButton({ className, children = "Sign out" }: { className?: string; children?: ReactNode }) {
  return (
    <button type="button" className={className} onClick={() => void signOut({ callbackUrl: "/signin" })}>
      {children}
    </button>
  );
}
