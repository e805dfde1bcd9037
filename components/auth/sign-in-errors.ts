/** Messages of a failed sign-in, shared by the sign-in page (server) and its form (browser). */

/**
 * What a failed sign-in tells the person. A throttled attempt (lib/auth/options.ts) ends with
 * `TooManyAttempts:<seconds>`: say how long to wait, instead of "wrong password".
 */
export function signInErrorMessage(error: string | null | undefined): string {
  const throttled = /^TooManyAttempts:(\d+)$/.exec(error ?? "");
  if (throttled) {
    const seconds = Number(throttled[1]);
    const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} second${seconds === 1 ? "" : "s"}`;
    return `Too many sign-in attempts. For your account's safety, please wait ${wait} before trying again.`;
  }
  if (error === "SignInUnavailable") return "Sign-in is unavailable for a moment. Please try again shortly.";
  if (error === "CredentialsSignin") return "The e-mail or password is not right, or the account is disabled.";
  return "Sign-in failed. Please try again.";
}
