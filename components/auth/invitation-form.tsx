"use client";

import type { FormEvent } from "react";
import { FormAlert, SingleSignOnButtons, SubmitButton, fieldClass, useSignInAttempt } from "./form-parts";

interface InvitationFormProps {
  token: string;
  email: string;
  entraId: boolean;
  oidcName: string | null;
}

const MIN_PASSWORD = 8;

/** The invitation page's form: a new password (typed twice), or single sign-on bound to this invitation. */
export function InvitationForm({ token, email, entraId, oidcName }: InvitationFormProps) {
  const { error, setError, pending, attempt } = useSignInAttempt();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password.length < MIN_PASSWORD) return setError(`Choose a password of at least ${MIN_PASSWORD} characters.`);
    if (password !== String(form.get("confirm") ?? "")) return setError("The two passwords are not the same.");
    void attempt("invitation", { token, password }, "/");
  }

  return (
    <form className="mt-6 space-y-4" onSubmit={onSubmit} noValidate>
      <FormAlert message={error} />
      {/* For password managers: the account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          New password
        </label>
        <input id="password" name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD} maxLength={1024} autoFocus className={fieldClass} aria-describedby="password-hint" />
        <p id="password-hint" className="mt-1 text-xs text-fg-muted">
          At least {MIN_PASSWORD} characters.
        </p>
      </div>
      <div>
        <label htmlFor="confirm" className="block text-sm font-medium">
          Repeat the password
        </label>
        <input id="confirm" name="confirm" type="password" autoComplete="new-password" required maxLength={1024} className={fieldClass} />
      </div>
      <SubmitButton pending={pending} pendingLabel="Saving…">
        Set password and sign in
      </SubmitButton>
      {/* Single sign-on returns to `/?invitation=<token>`: the callback binds the new identity to this user. */}
      <SingleSignOnButtons entraId={entraId} oidcName={oidcName} callbackUrl={`/?invitation=${token}`} suffix=" instead" />
    </form>
  );
}
