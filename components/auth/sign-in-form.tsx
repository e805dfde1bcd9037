"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { signInErrorMessage } from "./sign-in-errors";

interface SignInFormProps {
  /** A path on this site (checked by the page). */
  callbackUrl: string;
  initialError: string | null;
  /** Show "Sign in with Microsoft" (Entra ID is configured on the server). */
  entraId: boolean;
  /** The label of the generic OpenID Connect provider, when one is configured. */
  oidcName: string | null;
}

export function SignInForm({ callbackUrl, initialError, entraId, oidcName }: SignInFormProps) {
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    if (result?.ok && !result.error) {
      // A full navigation, so the server renders the dashboard with the new session cookie.
      window.location.assign(callbackUrl);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error));
  }

  const input =
    "mt-1 block w-full rounded-md border border-line bg-canvas px-3 py-2 text-fg shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-focus";

  return (
    <form className="mt-6 space-y-4" onSubmit={onSubmit}>
      {error ? (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div>
        <label htmlFor="email" className="block text-sm font-medium">
          E-mail
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus maxLength={254} className={input} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input id="password" name="password" type="password" autoComplete="current-password" required maxLength={1024} className={input} />
      </div>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
      {entraId ? (
        <button
          type="button"
          onClick={() => void signIn("azure-ad", { callbackUrl })}
          className="w-full rounded-md border border-line bg-surface px-4 py-2 font-medium hover:bg-surface-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-focus"
        >
          Sign in with Microsoft
        </button>
      ) : null}
      {oidcName ? (
        <button
          type="button"
          onClick={() => void signIn("oidc", { callbackUrl })}
          className="w-full rounded-md border border-line bg-surface px-4 py-2 font-medium hover:bg-surface-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-focus"
        >
          Sign in with {oidcName}
        </button>
      ) : null}
    </form>
  );
}
