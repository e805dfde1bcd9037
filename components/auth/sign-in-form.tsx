"use client";

import type { FormEvent } from "react";
import { FormAlert, SingleSignOnButtons, SubmitButton, fieldClass, useSignInAttempt } from "./form-parts";

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
  const { error, pending, attempt } = useSignInAttempt(initialError);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials = { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
    void attempt("credentials", credentials, callbackUrl);
  }

  return (
    <form className="mt-6 space-y-4" onSubmit={onSubmit}>
      <FormAlert message={error} />
      <div>
        <label htmlFor="email" className="block text-sm font-medium">
          E-mail
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus maxLength={254} className={fieldClass} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input id="password" name="password" type="password" autoComplete="current-password" required maxLength={1024} className={fieldClass} />
      </div>
      <SubmitButton pending={pending} pendingLabel="Signing in…">
        Sign in
      </SubmitButton>
      <SingleSignOnButtons entraId={entraId} oidcName={oidcName} callbackUrl={callbackUrl} />
    </form>
  );
}
