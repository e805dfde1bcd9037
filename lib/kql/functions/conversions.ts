/** KQL's conversions functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, type FunctionEntry } from "./entry";

export const CONVERSIONS: readonly FunctionEntry[] = [
  documented("scalar", "todouble", "todouble(x): real — converts to a real number (null if it cannot)"),
  documented("scalar", "toreal", "toreal(x): real — converts to a real number (null if it cannot)"),
  documented("scalar", "tolong", "tolong(x): long — converts to a 64-bit integer"),
  documented("scalar", "toint", "toint(x): int — converts to a 32-bit integer"),
  documented("scalar", "tostring", "tostring(x): string — converts to text"),
  documented("scalar", "todatetime", "todatetime(x): datetime — converts to a datetime"),
  documented("scalar", "totimespan", "totimespan(x): timespan — converts to a timespan"),
  documented("scalar", "totime", "totime(x): timespan — converts to a timespan"),
  documented("scalar", "tobool", "tobool(x): bool — converts to a bool"),
  documented("scalar", "toboolean", "toboolean(x): bool — converts to a bool"),
  documented("scalar", "gettype", "gettype(x): string — the type of the value, as text"),
];
