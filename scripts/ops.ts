/**
 * The operator CLI: `npm run ops -- <command> [options]` (add `--json` for JSON output).
 * Each domain's commands live in its own module; register them here with one line each.
 */
import { parseArgs } from "node:util";
import { OpsError, UsageError, type OpsCommand } from "../lib/platform/ops/command";
import { createOpsContext } from "./ops-context";
import { maintenanceCommands } from "@/modules/maintenance/service/ops";
import { telemetryCommands } from "../lib/service/telemetry/ops";
import { ingestCommands } from "../lib/service/telemetry/ingest/ops";
import { userCommands } from "../lib/dashboard-store/ops";
import { metricsCommands } from "../lib/dashboard-store/metrics-token";
import { keepFilesPrivate } from "../lib/platform/private-files";

keepFilesPrivate();

const COMMANDS: OpsCommand[] = [
  ...maintenanceCommands, // plants, token issue|list|revoke
  ...telemetryCommands, // customers, client create|list|revoke
  ...ingestCommands, // ingest status, device add|list
  ...userCommands, // user add|list|disable|enable
  ...metricsCommands, // metrics token
];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "Usage: npm run ops -- <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}\n  ${" ".repeat(width)}  ${c.name} ${c.usage}`),
    "",
    "Add --json to any command for JSON output.",
  ].join("\n");
}

/** The command whose name matches the most leading words of argv ("token issue" before "token"). */
function findCommand(argv: string[]): { command: OpsCommand; rest: string[] } | undefined {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  let best: OpsCommand | undefined;
  for (const command of COMMANDS) {
    const name = command.name.split(" ");
    if (name.every((word, i) => words[i] === word) && (!best || name.length > best.name.split(" ").length)) best = command;
  }
  if (!best) return undefined;
  const rest = [...argv];
  for (const word of best.name.split(" ")) rest.splice(rest.indexOf(word), 1);
  return { command: best, rest };
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    console.log(help());
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    console.error(`Unknown command: ${argv.filter((a) => !a.startsWith("-")).join(" ") || argv.join(" ")}\n\n${help()}`);
    return 2;
  }
  const { command, rest } = found;
  let ctx: ReturnType<typeof createOpsContext> | undefined;
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: { ...command.options, json: { type: "boolean" }, help: { type: "boolean" } },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    if (parsed.values.help) {
      console.log(`Usage: npm run ops -- ${command.name} ${command.usage}\n${command.summary}`);
      return 0;
    }
    if (parsed.positionals.length > (command.positionals ?? 0)) {
      throw new UsageError(`Unexpected argument '${parsed.positionals[command.positionals ?? 0]}'.`);
    }
    ctx = createOpsContext(parsed.values.json === true);
    await command.run(ctx, { values: parsed.values, positionals: parsed.positionals });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`ops ${command.name}: ${error.message}\nUsage: npm run ops -- ${command.name} ${command.usage}`);
      return 2;
    }
    if (error instanceof OpsError) {
      console.error(`ops ${command.name}: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await ctx?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
