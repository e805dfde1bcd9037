/**
 * Every environment variable the project reads, parsed and validated once. A problem is reported
 * with the variable's name and what is wrong, never with its value (values may be secrets).
 * Imported by the server, the operator CLI and the tests; never by browser code.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ID_PATTERN } from "./contract/vocabulary";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** An unset variable and an empty one mean the same: not configured. */
const optionalText = z.preprocess((value) => (value === "" ? undefined : value), z.string().min(1).optional());
const optionalUrl = z.preprocess((value) => (value === "" ? undefined : value), z.url({ protocol: /^https?$/ }).optional());

/** `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off` (any case); unset or empty is the default. */
const flag = (fallback: boolean) =>
  z.preprocess(
    (value) => (value === "" || value === undefined ? undefined : String(value).toLowerCase()),
    z.enum(["1", "true", "yes", "on", "0", "false", "no", "off"], { message: "must be 1 or 0 (true/false, yes/no, on/off)" })
      .transform((value) => ["1", "true", "yes", "on"].includes(value))
      .optional(),
  ).transform((value) => value ?? fallback);
/** `redis://[[user]:password@]host[:port][/db]` or `rediss://` (TLS); unset: state kept in this process. */
const redisUrl = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z.url({ protocol: /^rediss?$/, message: "must be a redis:// or rediss:// URL" }).optional(),
);
const mqttUrl = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z.url({ protocol: /^(mqtts?|wss?)$/, message: "must be an mqtt://, mqtts://, ws:// or wss:// URL" }).optional(),
);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /**
   * The server is behind a reverse proxy that sets X-Forwarded-For/-Host/-Proto: take the client's
   * address (sign-in throttling) and the public host from them. Otherwise they are dropped, since
   * any client could send them.
   */
  TRUST_PROXY: flag(false),
  /** `json`: one JSON object per log line (time, level, msg, requestId) and one access line per request; `text` (default): plain lines. */
  LOG_FORMAT: z.preprocess((value) => (value === "" ? undefined : value), z.enum(["text", "json"], { message: "must be text or json" }).default("text")),
  /**
   * How many nice steps (0–19) below the request loop every other thread runs on Linux: DuckDB's
   * workers, the libuv pool, V8's helpers (lib/platform/thread-priority.ts). 0 leaves them be.
   */
  WORKER_THREAD_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * Base URL of the embedded OAuth server as clients reach it: the discovery document's issuer and
   * endpoints, and the `iss` of every token (checked on each one). Never taken from a request's
   * Host. Default http://localhost:<PORT>.
   */
  OAUTH_ISSUER: optionalUrl,
  DATA_DIR: z.string().min(1).default("data"),
  /**
   * PostgreSQL for the service's and the dashboard's stores (maintenance data, tokens, clients,
   * users, audit log, query history), shared by every instance; unset: the SQLite files in
   * DATA_DIR. May carry user:password; never printed.
   */
  DATABASE_URL: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.url({ protocol: /^postgres(ql)?$/, message: "must be a postgres:// or postgresql:// URL" }).optional(),
  ),
  SEED: z.string().min(1).default("plantdesk"),
  /** Days of one-minute demo telemetry generated on first start. */
  DEMO_TELEMETRY_DAYS: positiveInt(30),
  TELEMETRY_RESOURCE_ID: z.string().min(1).default("api://plant-telemetry"),
  /** How often each server evaluates the maintenance plans (modules/maintenance/service/plan-scheduler.ts; one instance per tick). */
  PLANS_TICK_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  MAINTENANCE_RATE_LIMIT_PER_MINUTE: positiveInt(1200),
  /** Calls to the dashboard's `/api/` per signed-in user per minute (429 + Retry-After above). */
  DASHBOARD_RATE_LIMIT_PER_MINUTE: positiveInt(600),
  /**
   * The front door's pools (docs/architecture.md, "A fair front door"): requests served at once and
   * waiting, for all anonymous clients together (sign-in attempts included) and for each accepted
   * session, plant token or telemetry client; a request waits at most ADMISSION_QUEUE_WAIT_MS, a
   * full queue is answered 429 at once.
   */
  ADMISSION_ANONYMOUS_CONCURRENT: positiveInt(4),
  ADMISSION_ANONYMOUS_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  ADMISSION_PRINCIPAL_CONCURRENT: positiveInt(8),
  ADMISSION_PRINCIPAL_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  ADMISSION_QUEUE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** Anonymous requests let in per second, before their pool; the rest wait in line (lib/platform/http/anonymous-rate.ts). */
  ADMISSION_ANONYMOUS_PER_SECOND: positiveInt(50),
  /** Requests to the token endpoint per client id per minute (a client needs one token an hour). */
  TOKEN_RATE_LIMIT_PER_CLIENT_PER_MINUTE: positiveInt(30),
  /** Requests to the token endpoint per client address per minute (all client ids, known or not). */
  TOKEN_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: positiveInt(120),
  TELEMETRY_COST_BUDGET_PER_MINUTE: positiveInt(300),
  /** Milliseconds a telemetry query may run before it is interrupted (docs/api.md §6: 60 s). */
  TELEMETRY_QUERY_TIMEOUT_MS: positiveInt(60_000),
  /** The demo plant runs while the server runs (readings each minute, maintenance rolled forward); 0 freezes it. */
  DEMO_LIVE: flag(true),
  /** `direct` writes the demo's readings into DuckDB; `mqtt` publishes them to MQTT_URL and ingestion writes them. */
  DEMO_PUBLISH: z.preprocess((value) => (value === "" ? undefined : value), z.enum(["direct", "mqtt"]).default("direct")),
  /** Broker to take telemetry from (Sparkplug B and the plain JSON topic); unset: no ingestion. May carry user:password. */
  MQTT_URL: mqttUrl,
  /** Client id of the ingestion's persistent MQTT session (QoS 1 messages wait for it at the broker while the server is down). */
  MQTT_CLIENT_ID: z.preprocess((value) => (value === "" ? undefined : value), z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "1–64 letters, digits, '.', '_' or '-'").default("plantdesk-ingest")),
  /** Readings written per DuckDB transaction at most. */
  INGEST_BATCH_MAX: z.coerce.number().int().min(1).max(100_000).default(10_000),
  /** Longest a received reading waits before its batch is written (ms). */
  INGEST_FLUSH_MS: z.coerce.number().int().min(1).max(10_000).default(200),
  /** Readings held in memory at most; when full, ingestion stops reading from the broker until it drains. */
  INGEST_QUEUE_MAX: z.coerce.number().int().min(100).max(5_000_000).default(100_000),
  /** Series one device may have in its customer's store (metadata versions included), so one device cannot take all 65,536. */
  /** The Sparkplug host application id: the primary host publishes `spBv1.0/STATE/<id>` (Sparkplug 3.0). */
  SPARKPLUG_HOST_ID: z.preprocess((value) => (value === "" ? undefined : value), z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "1–64 letters, digits, '.', '_' or '-'").default("plantdesk")),
  /** Time to live of the primary host lease in Redis (ms): a dead holder's role passes on after about this long. */
  SPARKPLUG_HOST_LEASE_MS: z.coerce.number().int().min(500).max(60_000).default(3_000),
  INGEST_DEVICE_SERIES_MAX: z.coerce.number().int().min(1).max(65_536).default(1_000),
  /** Readings older than this before their arrival are dropped (`out_of_window`): no backdating of history. */
  INGEST_TIMESTAMP_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 366 * 30).default(24 * 7),
  /** Readings later than this after their arrival are dropped (`out_of_window`): a little clock skew only. */
  INGEST_TIMESTAMP_MAX_AHEAD_MINUTES: z.coerce.number().min(0).max(24 * 60).default(10),
  /**
   * Redis holding what several instances must share: rate limits, cost budgets and concurrency caps,
   * sign-in throttles, the remote upstream's token (docs/architecture.md, "State shared by
   * instances"). Unset: each process keeps them in memory. May carry a password; never logged.
   */
  REDIS_URL: redisUrl,
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().regex(/^[A-Za-z0-9:._-]{1,64}$/, "1–64 letters, digits, ':', '.', '_' or '-'").default("plantdesk:"),
  ),
  /** Telemetry queries running at once per client (or per signed-in dashboard user). */
  TELEMETRY_MAX_CONCURRENT_PER_CLIENT: positiveInt(2),
  /** Telemetry queries running at once per customer, all its clients and users together. */
  TELEMETRY_MAX_CONCURRENT_PER_CUSTOMER: positiveInt(4),
  /** Queries of one client that may wait for a place; more are answered 429 at once. */
  TELEMETRY_QUEUE_PER_CLIENT: z.coerce.number().int().min(0).default(4),
  /** Longest wait for a place before 429. */
  TELEMETRY_QUEUE_WAIT_MS: z.coerce.number().int().min(0).default(2_000),
  /**
   * Open the DuckDB telemetry files read-only: how several instances serve one DATA_DIR. They are
   * then written only by `npm run seed` (run it first, with the instances stopped); the live demo
   * plant and MQTT ingestion are off (docs/architecture.md, "Several instances").
   */
  TELEMETRY_READ_ONLY: flag(false),
  /** DuckDB's memory_limit per customer file (a query needing more fails with QUERY_LIMIT_EXCEEDED). */
  TELEMETRY_DUCKDB_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, "must be a size such as 512MB or 2GiB")
    .default("512MB"),
  /** Disk DuckDB may fill with a customer file's spilled intermediates (large sorts, joins); past it the query fails. */
  TELEMETRY_DUCKDB_MAX_TEMP_SIZE: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, "must be a size such as 4GB or 500MiB")
    .default("4GB"),
  /** ClickHouse's max_memory_usage of each telemetry query (past it: QUERY_LIMIT_EXCEEDED). */
  TELEMETRY_CLICKHOUSE_MAX_MEMORY_MB: positiveInt(1024),
  /** DuckDB worker threads per customer file while serving; default: every core. */
  // Every core (issue 38): DuckDB's workers yield between tasks and the event loop has little to do
  // while a query runs (DuckDB renders the JSON itself), so a core held back sat idle: with 2
  // threads instead of 1 the 398-day count and count per data point took about half the time.
  TELEMETRY_DUCKDB_THREADS: positiveInt(os.availableParallelism()),
  /**
   * Telemetry on ClickHouse instead of the embedded DuckDB files: `clickhouse://user:pass@host:8123/`
   * (`clickhouses://` for HTTPS; `?database_prefix=plantdesk_` names the per-customer databases).
   */
  TELEMETRY_URL: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z
      .string()
      .refine((value) => /^clickhouses?:\/\/[^/?#]+/.test(value) && URL.canParse(value), "must be clickhouse://user:pass@host:port/ or clickhouses://…")
      .optional(),
  ),
});

/** Where telemetry lives when TELEMETRY_URL names a ClickHouse server or cluster. */
interface ClickHouseTelemetryConfig {
  /** HTTP(S) address of the server (or the cluster's balancer). */
  url: string;
  username: string;
  password: string;
  databasePrefix: string;
}

export function parseTelemetryUrl(value: string): ClickHouseTelemetryConfig {
  const url = new URL(value);
  const secure = url.protocol === "clickhouses:" || url.searchParams.get("secure") === "true";
  const port = url.port || (secure ? "8443" : "8123");
  return {
    url: `${secure ? "https" : "http"}://${url.hostname}:${port}`,
    username: decodeURIComponent(url.username) || "default",
    password: decodeURIComponent(url.password),
    databasePrefix: url.searchParams.get("database_prefix") ?? "plantdesk_",
  };
}


/** The dashboard server: sign-in (next-auth) and its client of the service (lib/upstream). */
const dashboardEnvSchema = z.object({
  /** Public URL of the dashboard. https here makes the session cookie `secure`. */
  NEXTAUTH_URL: optionalUrl,
  /** Key of the session JWTs. Unset in embedded mode: generated once and kept in SQLite. */
  NEXTAUTH_SECRET: z.preprocess((value) => (value === "" ? undefined : value), z.string().min(32, "must be at least 32 characters").optional()),
  /** Absolute lifetime of a session, however busy. */
  SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 30).default(8),
  /** A session nobody used for this long ends. */
  SESSION_IDLE_MINUTES: z.coerce.number().positive().max(24 * 60 * 30).default(60),
  /** Audit rows older than this many days are deleted by a periodic prune (lib/dashboard-store/audit-retention.ts), so the log stays bounded. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
  AZURE_AD_CLIENT_ID: optionalText,
  AZURE_AD_CLIENT_SECRET: optionalText,
  AZURE_AD_TENANT_ID: optionalText,
  /** Any OpenID Connect provider (Keycloak, Okta, Auth0, ADFS, Google, PingFederate, …), by discovery. */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  /** The sign-in button's label: "Sign in with <OIDC_NAME>". */
  OIDC_NAME: z.preprocess((value) => (value === "" ? undefined : value), z.string().max(60).default("single sign-on")),
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
  /** Validated GET answers of the remote service kept for revalidation (lib/upstream/answer-cache.ts), in MB of JSON; 0 keeps none. */
  UPSTREAM_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  /** Mail server of the monitors' notifications, `smtp://user:pass@host:587` or `smtps://…`; unset: no e-mail. Never printed. */
  SMTP_URL: z.preprocess((value) => (value === "" ? undefined : value), z.url({ protocol: /^smtps?$/, message: "must be an smtp:// or smtps:// URL" }).optional()),
  /** Sender of the monitors' e-mail. */
  SMTP_FROM: z.string().min(3).max(320).default("Plantdesk <plantdesk@localhost>"),
  /**
   * Domains monitors may e-mail besides the plant's own users (comma-separated, e.g. `example.com,ops.example.com`);
   * unset: the domains of the plant's users (modules/monitors/service/recipients.ts).
   */
  NOTIFY_EMAIL_DOMAINS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? value.split(",").map((d) => d.trim().toLowerCase()).filter(Boolean) : undefined),
    z.array(z.string().regex(/^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)+$/, "a comma-separated list of domains")).max(100).optional(),
  ),
  /** Monitors' webhooks may go to private, loopback, link-local, … addresses (an internal chat server); default: public addresses only. */
  WEBHOOK_ALLOW_PRIVATE: flag(false),
  /** The monitors' schedule runs in this server (modules/monitors/service/scheduler.ts); 0 leaves it to other instances. */
  MONITORS_SCHEDULE: flag(true),
  /** Monitor evaluations running at once per instance. */
  MONITOR_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /**
   * Telemetry cost units one monitor may spend per minute, within its plant's monitors' budget
   * (TELEMETRY_COST_BUDGET_PER_MINUTE, shared by the plant's monitors): one heavy monitor stops
   * there and leaves the rest to the others (in remote mode too: the dashboard keeps these budgets
   * itself, lib/upstream/remote.ts, since the remote service sees one client for all monitors).
   */
  MONITOR_COST_BUDGET_PER_MINUTE: positiveInt(75),
  /** How often the schedule looks for due monitors. */
  MONITOR_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** Largest answer read from the remote service, in MB (a telemetry result is at most 64 MB of rows). */
  UPSTREAM_MAX_ANSWER_MB: z.coerce.number().positive().max(4096).default(80),
});

interface RemotePlant {
  id: string;
  token: string;
  name: string;
  customerId: string | null;
}

type UpstreamConfig =
  | { mode: "embedded" }
  | {
      mode: "remote";
      baseUrl: string;
      authUrl: string;
      plants: RemotePlant[];
      telemetry: { clientId: string; clientSecret: string; scope: string };
    };

interface DashboardConfig {
  upstream: UpstreamConfig;
  /** Demo users and a generated session secret: embedded mode only. */
  demo: boolean;
  nextAuthUrl: string | null;
  secureCookies: boolean;
  sessionSecret: string | null;
  sessionMaxAgeSeconds: number;
  sessionIdleSeconds: number;
  auditRetentionDays: number;
  demoPassword: string | null;
  azureAd: { clientId: string; clientSecret: string; tenantId: string } | null;
  /** Generic OpenID Connect: the issuer without a trailing slash (discovery at <issuer>/.well-known/openid-configuration). */
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
  timeouts: { maintenanceMs: number; queryMs: number };
  /** Budget of the remote client's validated answers, in characters of JSON (0: none kept). */
  answerCacheChars: number;
  monitors: { smtpUrl: string | null; smtpFrom: string; allowPrivateWebhooks: boolean; emailDomains: string[] | null; schedule: boolean; concurrency: number; pollMs: number; costBudgetPerMinute: number };
  /** Largest answer of the remote service read, in bytes: reading stops there. */
  maxAnswerBytes: number;
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
    if (!ID_PATTERN.test(id)) {
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
  const oidcVariables = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;
  const oidcSet = oidcVariables.filter((name) => env[name] !== undefined);
  if (oidcSet.length > 0 && oidcSet.length < oidcVariables.length) {
    for (const name of oidcVariables) if (env[name] === undefined) problems.push(`  ${name}: required with the other OIDC_ variables`);
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
    sessionIdleSeconds: Math.round(env.SESSION_IDLE_MINUTES * 60),
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    demoPassword: env.DEMO_PASSWORD ?? null,
    azureAd:
      env.AZURE_AD_CLIENT_ID && env.AZURE_AD_CLIENT_SECRET && env.AZURE_AD_TENANT_ID
        ? { clientId: env.AZURE_AD_CLIENT_ID, clientSecret: env.AZURE_AD_CLIENT_SECRET, tenantId: env.AZURE_AD_TENANT_ID }
        : null,
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? { issuer: env.OIDC_ISSUER.replace(/\/+$/, ""), clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET, name: env.OIDC_NAME }
        : null,
    timeouts: { maintenanceMs: env.UPSTREAM_TIMEOUT_MS, queryMs: env.UPSTREAM_QUERY_TIMEOUT_MS },
    answerCacheChars: Math.round(env.UPSTREAM_CACHE_MB * 1024 * 1024),
    monitors: {
      smtpUrl: env.SMTP_URL ?? null,
      smtpFrom: env.SMTP_FROM,
      allowPrivateWebhooks: env.WEBHOOK_ALLOW_PRIVATE,
      emailDomains: env.NOTIFY_EMAIL_DOMAINS ?? null,
      schedule: env.MONITORS_SCHEDULE,
      concurrency: env.MONITOR_CONCURRENCY,
      pollMs: env.MONITOR_POLL_MS,
      costBudgetPerMinute: env.MONITOR_COST_BUDGET_PER_MINUTE,
    },
    maxAnswerBytes: Math.round(env.UPSTREAM_MAX_ANSWER_MB * 1024 * 1024),
  };
}

export type AppConfig = z.output<typeof envSchema> & {
  dataDir: string;
  /** Set when TELEMETRY_URL is: telemetry on ClickHouse; otherwise the embedded DuckDB files. */
  telemetryClickHouse: ClickHouseTelemetryConfig | null;
  /** The dashboard's public URL: NEXTAUTH_URL, or http://localhost:<PORT> (invitation links, sign-in redirects). */
  publicUrl: string;
  /** OAUTH_ISSUER without a trailing slash, or http://localhost:<PORT>. */
  oauthIssuer: string;
  dashboard: DashboardConfig;
};

let cached: AppConfig | null = null;

export function parseConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const result = envSchema.safeParse(env);
  const dashboardResult = dashboardEnvSchema.safeParse(env);
  const lines = [result, dashboardResult].flatMap((parsed) =>
    parsed.success ? [] : parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`),
  );
  const dashboard = dashboardResult.success ? parseDashboardConfig(dashboardResult.data, lines) : null;
  if (result.success && result.data.DEMO_PUBLISH === "mqtt" && !result.data.MQTT_URL) lines.push("  DEMO_PUBLISH: mqtt needs MQTT_URL");
  if (!result.success || !dashboard || lines.length > 0) {
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return {
    ...result.data,
    dataDir: path.resolve(result.data.DATA_DIR),
    telemetryClickHouse: result.data.TELEMETRY_URL ? parseTelemetryUrl(result.data.TELEMETRY_URL) : null,
    publicUrl: (dashboard.nextAuthUrl ?? `http://localhost:${result.data.PORT}`).replace(/\/+$/, ""),
    oauthIssuer: (result.data.OAUTH_ISSUER ?? `http://localhost:${result.data.PORT}`).replace(/\/+$/, ""),
    dashboard,
  };
}

/** Loopback hosts: traffic to them never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * What the operator should know at start but that does not stop it: a remote upstream reached over
 * plain `http://` on another machine sends the plant tokens and the telemetry client's secret
 * unencrypted. One line per address, naming the variable and the host — never a path, user or token.
 */
export function startupWarnings(config: Pick<AppConfig, "dashboard">): string[] {
  const { upstream } = config.dashboard;
  if (upstream.mode !== "remote") return [];
  const warnings: string[] = [];
  for (const [name, address] of [["SERVICE_BASE_URL", upstream.baseUrl], ["SERVICE_AUTH_URL", upstream.authUrl]] as const) {
    const url = URL.canParse(address) ? new URL(address) : null;
    if (url?.protocol === "http:" && !isLoopback(url.hostname)) {
      warnings.push(`Warning: ${name} uses plain http:// to ${url.hostname}, which is not this machine: tokens and the telemetry client secret cross the network unencrypted. Use https://.`);
    }
  }
  return warnings;
}

/** The configuration of this process, parsed on first use. */
export function getConfig(): AppConfig {
  cached ??= parseConfig();
  return cached;
}
