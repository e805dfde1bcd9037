/**
 * The server's log lines (README, "Operating"): plain text by default, or with LOG_FORMAT=json one
 * JSON object per line — `time`, `level`, `msg`, and the `requestId` of the request being served
 * when the line was written (the same id the answer carries as `x-request-id`), so a log
 * collector can join a request's lines. Every module keeps calling console.*; JSON mode wraps it
 * once per process.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";

interface RequestScope {
  requestId: string;
}

const requestScopes = new AsyncLocalStorage<RequestScope>();
const scopes = () => requestScopes;

/** Runs `fn` (a request's handling) so that every line it logs carries `requestId`. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return scopes().run({ requestId }, fn);
}

function currentRequestId(): string | undefined {
  return scopes().getStore()?.requestId;
}

type Level = "debug" | "info" | "warn" | "error";

/** One JSON log line. Fields of `extra` come after the fixed ones and never replace them. */
export function jsonLine(level: Level, msg: string, extra: Record<string, unknown> = {}): string {
  const requestId = currentRequestId();
  return JSON.stringify({ ...extra, time: new Date().toISOString(), level, msg, ...(requestId ? { requestId } : {}) });
}

/** Makes console.log/info/warn/error/debug write JSON lines (once per process). */
let jsonConsole = false;

export function useJsonConsole(): void {
  if (jsonConsole) return;
  jsonConsole = true;
  {
    const write = (stream: NodeJS.WriteStream, level: Level) => (...args: unknown[]) => {
      stream.write(`${jsonLine(level, format(...args))}\n`);
    };
    console.log = write(process.stdout, "info");
    console.info = write(process.stdout, "info");
    console.debug = write(process.stdout, "debug");
    console.warn = write(process.stderr, "warn");
    console.error = write(process.stderr, "error");
  }
}
