/**
 * A reason the server (or `npm run seed`) cannot start that the operator can fix: its message is
 * one line saying what to do, printed as it is, without a stack trace (scripts/serve.ts,
 * scripts/seed.ts).
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

export function isStartupError(error: unknown): error is StartupError {
  return error instanceof StartupError;
}
