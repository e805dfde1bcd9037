/**
 * A reason the server (or `npm run seed`) cannot start that the operator can fix: its message is
 * one line saying what to do, printed as it is, without a stack trace (scripts/serve.ts,
 * scripts/seed.ts). Recognised by a brand, as ApiError is, since Next's bundles load their own
 * copy of this module (lib/process-wide.ts).
 */
import { processBrand } from "../process-wide";

const BRAND = processBrand("StartupError");

export class StartupError extends Error {
  readonly [BRAND] = true;

  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

export function isStartupError(error: unknown): error is StartupError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
