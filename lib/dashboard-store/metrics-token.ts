/**
 * The bearer token a Prometheus scraper presents at `GET /metrics` (README, "Operating"): made by
 * `npm run ops -- metrics token`, shown once, kept only as its SHA-256 in the dashboard's settings,
 * so every instance sharing the store accepts it and a new one replaces the old.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { SqlExecutor } from "@/lib/platform/sql";
import type { OpsCommand } from "@/lib/platform/ops/command";

const KEY = "metrics_token_sha256";
const digest = (token: string) => createHash("sha256").update(token, "utf8").digest();

/** Makes a new token (the previous one stops working) and returns it; only its hash is stored. */
export async function issueMetricsToken(db: SqlExecutor): Promise<string> {
  const token = `pdm_${randomBytes(32).toString("base64url")}`;
  const value = digest(token).toString("hex");
  await db.run("INSERT INTO dashboard_settings (key, value) VALUES (@key, @value) ON CONFLICT (key) DO UPDATE SET value = @value", { key: KEY, value });
  return token;
}

/** Whether `token` is the current metrics token (compared in constant time). */
export async function isMetricsToken(db: SqlExecutor, token: string): Promise<boolean> {
  const row = await db.get<{ value: string }>("SELECT value FROM dashboard_settings WHERE key = @key", { key: KEY });
  if (!row) return false;
  const stored = Buffer.from(row.value, "hex");
  const given = digest(token);
  return stored.length === given.length && timingSafeEqual(stored, given);
}

export const metricsCommands: OpsCommand[] = [
  {
    name: "metrics token",
    usage: "[--json]",
    summary: "Make the bearer token of GET /metrics (shown once; replaces the previous one).",
    async run(ctx) {
      const token = await issueMetricsToken(await ctx.dashboardDb());
      ctx.result(`Metrics token (shown once; the previous one no longer works):\n${token}\nScrape with: Authorization: Bearer <token>`, { token });
    },
  },
];
