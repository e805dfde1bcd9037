"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { signInErrorMessage } from "./sign-in-errors";

interface InvitationFormProps {
  token: string;
  email: string;
  entraId: boolean;
  oidcName: string | null;
}

const MIN_PASSWORD = 8;

/** The invitation page's form: a new password (typed twice), or single sign-on bound to this invitation. */
export function InvitationForm({ token, email, entraId, oidcName }: InvitationFormProps) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password.length < MIN_PASSWORD) return setError(`Choose a password of at least ${MIN_PASSWORD} characters.`);
    if (password !== String(form.get("confirm") ?? "")) return setError("The two passwords are not the same.");
    setPending(true);
    setError(null);
    const result = await signIn("invitation", { token, password, redirect: false });
    if (result?.ok && !result.error) {
      // A full page load: the server renders the next page with the new (or no) session cookie.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/");
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error));
  }

  // The SSO sign-in returns to `/?invitation=<token>`: the callback binds the new identity to this user.
  const sso = (provider: string) => void signIn(provider, { callbackUrl: `/?invitation=${token}` });
  const input =
    "mt-1 block w-full rounded-md border border-line bg-canvas px-3 py-2 text-fg shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-focus";
  const secondary =
    "w-full rounded-md border border-line bg-surface px-4 py-2 font-medium hover:bg-surface-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-focus";

  return (
    <form className="mt-6 space-y-4" onSubmit={onSubmit} noValidate>
      {error ? (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
      {/* For password managers: the account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          New password
        </label>
        <input id="password" name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD} maxLength={1024} autoFocus className={input} aria-describedby="password-hint" />
        <p id="password-hint" className="mt-1 text-xs text-fg-muted">
          At least {MIN_PASSWORD} characters.
        </p>
      </div>
      <div>
        <label htmlFor="confirm" className="block text-sm font-medium">
          Repeat the password
        </label>
        <input id="confirm" name="confirm" type="password" autoComplete="new-password" required maxLength={1024} className={input} />
      </div>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 disabled:opacity-60"
      >
        {pending ? "Saving…" : "Set password and sign in"}
      </button>
      {entraId ? (
        <button type="button" onClick={() => sso("azure-ad")} className={secondary}>
          Sign in with Microsoft instead
        </button>
      ) : null}
      {oidcName ? (
        <button type="button" onClick={() => sso("oidc")} className={secondary}>
          Sign in with {oidcName} instead
        </button>
      ) : null}
    </form>
  );
}
