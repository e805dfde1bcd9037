"use client";

import { signIn } from "next-auth/react";
import { useState, type ReactNode } from "react";
import { signInErrorMessage } from "./sign-in-errors";

/** The text field look shared by the sign-in and invitation forms. */
export const fieldClass =
  "mt-1 block w-full rounded-md border border-line bg-canvas px-3 py-2 text-fg shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-focus";

const secondaryButtonClass =
  "w-full rounded-md border border-line bg-surface px-4 py-2 font-medium hover:bg-surface-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-focus";

/**
 * One next-auth sign-in attempt without next-auth's own redirect: on success a full page load of
 * `destination` (so the server renders it with the new session cookie), otherwise the refusal in words.
 */
export function useSignInAttempt(initialError: string | null = null) {
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function attempt(provider: string, credentials: Record<string, string>, destination: string) {
    setPending(true);
    setError(null);
    const result = await signIn(provider, { ...credentials, redirect: false });
    if (result?.ok && !result.error) {
      window.location.assign(destination);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error));
  }

  return { error, setError, pending, attempt };
}

export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
      {message}
    </p>
  );
}

export function SubmitButton({ pending, children, pendingLabel }: { pending: boolean; children: ReactNode; pendingLabel: string }) {
  return (
    <button
      type="submit"
      disabled={pending}
      className="w-full rounded-md bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 disabled:opacity-60"
    >
      {pending ? pendingLabel : children}
    </button>
  );
}

interface SingleSignOnButtonsProps {
  /** Entra ID is configured on the server. */
  entraId: boolean;
  /** The label of the generic OpenID Connect provider, when one is configured. */
  oidcName: string | null;
  /** Where the identity provider sends the user back to. */
  callbackUrl: string;
  /** Appended to each label ("instead" beside a password form that is the main path). */
  suffix?: string;
}

/** A button per configured identity provider; next-auth's provider ids are `azure-ad` and `oidc`. */
export function SingleSignOnButtons({ entraId, oidcName, callbackUrl, suffix = "" }: SingleSignOnButtonsProps) {
  const providers = [...(entraId ? [{ id: "azure-ad", label: "Microsoft" }] : []), ...(oidcName ? [{ id: "oidc", label: oidcName }] : [])];
  return providers.map((provider) => (
    <button key={provider.id} type="button" onClick={() => void signIn(provider.id, { callbackUrl })} className={secondaryButtonClass}>
      Sign in with {provider.label}
      {suffix}
    </button>
  ));
}
