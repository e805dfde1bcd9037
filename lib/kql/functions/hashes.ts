/** KQL's hashes functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, type FunctionEntry } from "./entry";

export const HASHES: readonly FunctionEntry[] = [
  documented("scalar", "hash", "hash(x [, Mod]): long — a hash (values differ from ADX's xxhash64)"),
];
