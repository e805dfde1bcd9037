/**
 * The operator CLI's building blocks (`npm run ops -- <command>`, the spec's "customer operations
 * center"). Each domain defines its commands in its own module; scripts/ops.ts lists them and
 * scripts/ops-context.ts opens the stores they work on.
 * Commands only open the service's and the dashboard's databases (never the DuckDB files, which the running server holds),
 * so they work while the server runs.
 */
import type { ParseArgsConfig } from "node:util";
import type { AppConfig } from "@/lib/config";
import type { PostgresSqlDb } from "../postgres";
import type { SqlDb, SqliteSqlDb } from "../sql";

interface OpsIo {
  /** Prints the human form, or the JSON form with `--json`. */
  result(human: string, json: unknown): void;
}

export interface OpsContext extends OpsIo {
  config: AppConfig;
  /** The service's database (maintenance data, plant tokens, telemetry clients): SQLite or PostgreSQL, migrated and seeded on first access. */
  db(): Promise<SqliteSqlDb | PostgresSqlDb>;
  /** The dashboard's own database (users, audit log, query history). */
  dashboardDb(): Promise<SqlDb>;
  json: boolean;
}

interface OpsArgs {
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

/**
 * `<name> <id>`: revokes one credential by id (a plant token, a telemetry client), answering
 * `{ <idField>: id, revoked: true }`, or says the id is unknown.
 */
export function revokeCommand(spec: {
  name: string;
  summary: string;
  /** The id's name in the usage line and the JSON answer, e.g. `tokenId` / `id`. */
  usageName: string;
  idField: string;
  /** What the id names, for the error message, and the command that lists them. */
  what: string;
  listCommand: string;
  revoke(ctx: OpsContext, id: string): Promise<boolean>;
}): OpsCommand {
  return {
    name: spec.name,
    usage: `<${spec.usageName}> [--json]`,
    summary: spec.summary,
    positionals: 1,
    async run(ctx, args) {
      const id = args.positionals[0];
      if (!id) throw new UsageError(`The ${spec.what} id is required (see \`${spec.listCommand}\`).`);
      if (!(await spec.revoke(ctx, id))) throw new OpsError(`No ${spec.what} with id '${id}'.`);
      ctx.result(`Revoked ${id}.`, { [spec.idField]: id, revoked: true });
    },
  };
}
