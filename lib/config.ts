/**
 * Every environment variable the project reads, parsed and validated once. A problem is reported
 * with the variable's name and what is wrong, never with its value (values may be secrets).
 * Imported by the server, the operator CLI and the tests; never by browser code.
 */
import fs from "node:fs";
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

/** An unset variable and an empty one mean the same: not configured. */
const optionalText = z.preprocess((value) => (value === "" ? undefined : value), z.string().min(1).optional());
const optionalUrl = z.preprocess((value) => (value === "" ? undefined : value), z.url({ protocol: /^https?$/ }).optional());

/** The dashboard server: sign-in (next-auth) and its client of the service (lib/upstream). */
const dashboardEnvSchema = z.object({
  /** Public URL of the dashboard. https here makes the session cookie `secure`. */
  NEXTAUTH_URL: optionalUrl,
  /** Key of the session JWTs. Unset in embedded mode: generated once and kept in SQLite. */
  NEXTAUTH_SECRET: z.preprocess((value) => (value === "" ? undefined : value), z.string().min(32, "must be at least 32 characters").optional()),
  SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 30).default(8),
  AZURE_AD_CLIENT_ID: optionalText,
  AZURE_AD_CLIENT_SECRET: optionalText,
  AZURE_AD_TENANT_ID: optionalText,
  /** Password of the demo users (embedded mode); generated on first start when unset. */
  DEMO_PASSWORD: z.preprocess((value) => (value === "" ? undefined : value), z.string().min(8, "must be at least 8 characters").optional()),
  SERVICE_BASE_URL: optionalUrl,
  SERVICE_AUTH_URL: optionalUrl,
  /** JSON map `{ "<plantId>": "<token>" | { token, name?, customerId? } }`, or the path of a file holding it. */
  PLANT_TOKENS: optionalText,
  TELEMETRY_CLIENT_ID: optionalText,
  TELEMETRY_CLIENT_SECRET: optionalText,
  TELEMETRY_SCOPE: optionalText,
  /** Per-attempt time limit of a maintenance call to the service. */
  UPSTREAM_TIMEOUT_MS: positiveInt(10_000),
  /** Per-attempt time limit of a telemetry query (the service itself stops at 60 s). */
  UPSTREAM_QUERY_TIMEOUT_MS: positiveInt(65_000),
});

const PLANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface RemotePlant {
  id: string;
  token: string;
  name: string;
  customerId: string | null;
}

export type UpstreamConfig =
  | { mode: "embedded" }
  | {
      mode: "remote";
      baseUrl: string;
      authUrl: string;
      plants: RemotePlant[];
      telemetry: { clientId: string; clientSecret: string; scope: string };
    };

export interface DashboardConfig {
  upstream: UpstreamConfig;
  /** Demo users and a generated session secret: embedded mode only. */
  demo: boolean;
  nextAuthUrl: string | null;
  secureCookies: boolean;
  sessionSecret: string | null;
  sessionMaxAgeSeconds: number;
  demoPassword: string | null;
  azureAd: { clientId: string; clientSecret: string; tenantId: string } | null;
  timeouts: { maintenanceMs: number; queryMs: number };
}

type DashboardEnv = z.output<typeof dashboardEnvSchema>;

/** Reads PLANT_TOKENS (inline JSON or a file); problems are named, values never shown. */
function parsePlantTokens(text: string, problems: string[]): RemotePlant[] {
  let source = text.trim();
  if (!source.startsWith("{")) {
    try {
      source = fs.readFileSync(path.resolve(source), "utf8");
    } catch {
      problems.push("  PLANT_TOKENS: is neither a JSON object nor the path of a readable file");
      return [];
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    problems.push("  PLANT_TOKENS: is not valid JSON");
    return [];
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    problems.push('  PLANT_TOKENS: must be a JSON object { "<plantId>": "<token>" }');
    return [];
  }
  const plants: RemotePlant[] = [];
  for (const [id, value] of Object.entries(parsed)) {
    if (!PLANT_ID.test(id)) {
      problems.push(`  PLANT_TOKENS: "${id}" is not a valid plant id`);
      continue;
    }
    const entry = typeof value === "string" ? { token: value } : (value as Record<string, unknown> | null);
    const token = entry?.token;
    if (typeof token !== "string" || token.length === 0) {
      problems.push(`  PLANT_TOKENS.${id}: needs a non-empty token string`);
      continue;
    }
    const name = typeof entry?.name === "string" && entry.name ? entry.name : id;
    const customerId = typeof entry?.customerId === "string" && entry.customerId ? entry.customerId : null;
    plants.push({ id, token, name, customerId });
  }
  if (plants.length === 0 && problems.length === 0) problems.push("  PLANT_TOKENS: names no plant");
  return plants;
}

function parseDashboardConfig(env: DashboardEnv, problems: string[]): DashboardConfig {
  const remoteVariables = ["SERVICE_BASE_URL", "SERVICE_AUTH_URL", "PLANT_TOKENS", "TELEMETRY_CLIENT_ID", "TELEMETRY_CLIENT_SECRET", "TELEMETRY_SCOPE"] as const;
  let upstream: UpstreamConfig = { mode: "embedded" };
  if (remoteVariables.some((name) => env[name] !== undefined)) {
    // Any one of them selects remote mode; then each must be present.
    for (const name of remoteVariables) {
      if (env[name] === undefined) problems.push(`  ${name}: required in remote mode (set because another SERVICE_/TELEMETRY_ variable or PLANT_TOKENS is)`);
    }
    const plants = env.PLANT_TOKENS ? parsePlantTokens(env.PLANT_TOKENS, problems) : [];
    if (env.TELEMETRY_SCOPE && !env.TELEMETRY_SCOPE.endsWith("/.default")) problems.push("  TELEMETRY_SCOPE: must end in /.default");
    if (!env.NEXTAUTH_SECRET) problems.push("  NEXTAUTH_SECRET: required in remote mode");
    upstream = {
      mode: "remote",
      baseUrl: (env.SERVICE_BASE_URL ?? "").replace(/\/+$/, ""),
      authUrl: (env.SERVICE_AUTH_URL ?? "").replace(/\/+$/, ""),
      plants,
      telemetry: { clientId: env.TELEMETRY_CLIENT_ID ?? "", clientSecret: env.TELEMETRY_CLIENT_SECRET ?? "", scope: env.TELEMETRY_SCOPE ?? "" },
    };
  }
  const azureVariables = ["AZURE_AD_CLIENT_ID", "AZURE_AD_CLIENT_SECRET", "AZURE_AD_TENANT_ID"] as const;
  const azureSet = azureVariables.filter((name) => env[name] !== undefined);
  if (azureSet.length > 0 && azureSet.length < azureVariables.length) {
    for (const name of azureVariables) if (env[name] === undefined) problems.push(`  ${name}: required with the other AZURE_AD_ variables`);
  }
  if (azureSet.length === azureVariables.length && !env.NEXTAUTH_URL) {
    problems.push("  NEXTAUTH_URL: required for Microsoft Entra ID sign-in (it builds the redirect URI)");
  }
  return {
    upstream,
    demo: upstream.mode === "embedded",
    nextAuthUrl: env.NEXTAUTH_URL ?? null,
    secureCookies: env.NEXTAUTH_URL?.startsWith("https://") ?? false,
    sessionSecret: env.NEXTAUTH_SECRET ?? null,
    sessionMaxAgeSeconds: Math.round(env.SESSION_MAX_AGE_HOURS * 3600),
    demoPassword: env.DEMO_PASSWORD ?? null,
    azureAd:
      env.AZURE_AD_CLIENT_ID && env.AZURE_AD_CLIENT_SECRET && env.AZURE_AD_TENANT_ID
        ? { clientId: env.AZURE_AD_CLIENT_ID, clientSecret: env.AZURE_AD_CLIENT_SECRET, tenantId: env.AZURE_AD_TENANT_ID }
        : null,
    timeouts: { maintenanceMs: env.UPSTREAM_TIMEOUT_MS, queryMs: env.UPSTREAM_QUERY_TIMEOUT_MS },
  };
}

export type AppConfig = z.output<typeof envSchema> & { dataDir: string; dashboard: DashboardConfig };

let cached: AppConfig | null = null;

export function parseConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const result = envSchema.safeParse(env);
  const dashboardResult = dashboardEnvSchema.safeParse(env);
  const lines = [result, dashboardResult].flatMap((parsed) =>
    parsed.success ? [] : parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`),
  );
  const dashboard = dashboardResult.success ? parseDashboardConfig(dashboardResult.data, lines) : null;
  if (!result.success || !dashboard || lines.length > 0) {
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...result.data, dataDir: path.resolve(result.data.DATA_DIR), dashboard };
}

/** The configuration of this process, parsed on first use. */
export function getConfig(): AppConfig {
  cached ??= parseConfig();
  return cached;
}
