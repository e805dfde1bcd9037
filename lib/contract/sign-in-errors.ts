/**
 * The codes a refused sign-in ends with (next-auth hands them to the sign-in page as `?error=` or
 * to `signIn()` as `result.error`); components/auth/sign-in-errors.ts turns each into words.
 * Plain data, no Node imports: the browser's form reads them too.
 */
export const SIGN_IN_ERRORS = {
  /** `TooManyAttempts:<seconds>`: this account at this address must wait. */
  throttled: "TooManyAttempts",
  /** The shared throttle (Redis) could not be checked. */
  unavailable: "SignInUnavailable",
  /** The password-check queue is full (a sign-in flood). */
  busy: "SignInBusy",
  /** An invitation link that is unknown, used, expired, or for a disabled user. */
  invitation: "InvitationInvalid",
  /** The new password of an invitation is too short or too long. */
  weakPassword: "PasswordRules",
  /** The identity provider's answer named no issuer and subject we accept. */
  identity: "IdentityInvalid",
  /** A new identity without an e-mail address. */
  noEmail: "IdentityWithoutEmail",
  /** A new identity whose provider does not vouch for its e-mail (`email_verified` not true). */
  unverifiedEmail: "EmailUnverified",
  /** A new identity whose e-mail is already another user's: an invitation link binds it. */
  emailTaken: "EmailTaken",
  /** The user is disabled. */
  disabled: "AccountDisabled",
} as const;
