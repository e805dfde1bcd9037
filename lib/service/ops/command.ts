/**
 * The operator CLI's building blocks (`npm run ops -- <command>`, the spec's "customer operations
 * center"). Each domain defines its commands in its own module and scripts/ops.ts lists them.
 * Commands only open the SQLite database (never the DuckDB files, which the running server holds),
 * so they work while the server runs.
 */
import type { ParseArgsConfig } from "node:util";
import type { AppConfig } from "@/lib/config";
import type { SqliteDatabase } from "../store/sqlite";

export interface OpsIo {
  /** Prints the human form, or the JSON form with `--json`. */
  result(human: string, json: unknown): void;
}

export interface OpsContext extends OpsIo {
  config: AppConfig;
  /** The SQLite database, migrated (and seeded on first use), opened on first access. */
  db(): SqliteDatabase;
  json: boolean;
}

export interface OpsArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export interface OpsCommand {
  /** One or more words, e.g. "token issue". */
  name: string;
  /** Arguments after the name, e.g. "--plant <plantId> [--expires <days>]". */
  usage: string;
  summary: string;
  options?: ParseArgsConfig["options"];
  /** Positional arguments the command takes (more is a usage error). */
  positionals?: number;
  run(ctx: OpsContext, args: OpsArgs): void | Promise<void>;
}

/** Bad arguments: the CLI prints the message and the command's usage, and exits with status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A failure that is not the arguments' fault (unknown id, …): message and exit status 1. */
export class OpsError extends Error {
  override name = "OpsError";
}

export function requireString(args: OpsArgs, option: string): string {
  const value = args.values[option];
  if (typeof value !== "string" || value.length === 0) throw new UsageError(`--${option} is required.`);
  return value;
}

/** Aligns rows into columns for human output. */
export function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return "(none)";
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
