/**
 * Every environment variable the project reads, parsed and validated once. A problem is reported
 * with the variable's name and what is wrong, never with its value (values may be secrets).
 * Imported by the server, the operator CLI and the tests; never by browser code.
 */
import path from "node:path";
import { z } from "zod";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("data"),
  SEED: z.string().min(1).default("plantdesk"),
  /** Days of one-minute demo telemetry generated on first start. */
  DEMO_TELEMETRY_DAYS: positiveInt(30),
  TELEMETRY_RESOURCE_ID: z.string().min(1).default("api://plant-telemetry"),
  MAINTENANCE_RATE_LIMIT_PER_MINUTE: positiveInt(1200),
  TELEMETRY_COST_BUDGET_PER_MINUTE: positiveInt(300),
  /** Milliseconds a telemetry query may run before it is interrupted (decisions.md §6: 60 s). */
  TELEMETRY_QUERY_TIMEOUT_MS: positiveInt(60_000),
});

export type AppConfig = z.output<typeof envSchema> & { dataDir: string };

let cached: AppConfig | null = null;

export function parseConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...result.data, dataDir: path.resolve(result.data.DATA_DIR) };
}

/** The configuration of this process, parsed on first use. */
export function getConfig(): AppConfig {
  cached ??= parseConfig();
  return cached;
}
