/** Messages of a failed sign-in, shared by the sign-in page (server) and its forms (browser). */
import { SIGN_IN_ERRORS } from "@/lib/contract/sign-in-errors";

/** "in 5 minutes (at 14:32)": a wait in words, and the clock time in the person's locale. */
function waitInWords(seconds: number, now = Date.now(), locale?: string): string {
  const span = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} second${seconds === 1 ? "" : "s"}`;
  if (seconds < 60) return `in ${span}`;
  const at = new Date(now + seconds * 1000).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  return `in ${span} (at ${at})`;
}

const MESSAGES: Record<string, string> = {
  [SIGN_IN_ERRORS.unavailable]: "Sign-in is unavailable for a moment. Please try again shortly.",
  [SIGN_IN_ERRORS.busy]: "Many sign-ins are being checked right now. Please try again in a few seconds.",
  [SIGN_IN_ERRORS.invitation]: "This invitation link is not valid any more: it was used, replaced or has expired. Ask an administrator for a new one.",
  [SIGN_IN_ERRORS.weakPassword]: "Choose a password of at least 8 characters.",
  [SIGN_IN_ERRORS.identity]: "Your identity provider's answer could not be accepted. Please try again, or ask an administrator.",
  [SIGN_IN_ERRORS.unverifiedEmail]: "Your identity provider has not verified your e-mail address, so Plantdesk cannot set up your account with it. Verify it at your provider, or ask an administrator for an invitation.",
  [SIGN_IN_ERRORS.noEmail]: "Your identity provider did not share an e-mail address, which Plantdesk needs to set up your account. Ask an administrator.",
  [SIGN_IN_ERRORS.emailTaken]: "A Plantdesk user with your e-mail address already exists. Ask an administrator for an invitation link to connect your single sign-on account to it.",
  [SIGN_IN_ERRORS.disabled]: "Your Plantdesk account is disabled. Ask an administrator.",
  AccessDenied: "You may not sign in to Plantdesk. Ask an administrator.",
  SessionRequired: "Please sign in to continue.",
  OAuthCallback: "Single sign-on did not complete. Please try again.",
  OAuthSignin: "Single sign-on could not be started. Please try again, or ask an administrator.",
  Callback: "Single sign-on did not complete. Please try again.",
  CredentialsSignin: "The e-mail or password is not right, or the account is disabled.",
};

/**
 * What a failed sign-in tells the person. A throttled attempt ends with `TooManyAttempts:<seconds>`:
 * say when to try again, in words, instead of "wrong password" or a code.
 */
export function signInErrorMessage(error: string | null | undefined): string {
  const throttled = new RegExp(`^${SIGN_IN_ERRORS.throttled}:(\\d+)$`).exec(error ?? "");
  if (throttled) {
    return `Too many sign-in attempts for this account from here. Please try again ${waitInWords(Number(throttled[1]))}.`;
  }
  return MESSAGES[error ?? ""] ?? "Sign-in failed. Please try again.";
}
