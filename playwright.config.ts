/**
 * Browser tests in Debian's Chromium against the server started exactly as the README starts it
 * (`npm start`), on a fresh, temporary DATA_DIR: real SQLite, real DuckDB, real sign-in, and MQTT
 * ingestion from the machine's Mosquitto. `npm test`
 * builds first (`next build`), so `npm start` finds the build current and only serves it. E2E_BASE_URL points the tests at an
 * already running server instead (a developer's own instance).
 */
import { defineConfig, devices } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromiumPath } from "./scripts/chromium-path";
import { serviceAddress } from "./lib/testing/services";

const port = Number(process.env.E2E_PORT ?? 3200);
const external = process.env.E2E_BASE_URL;
const baseURL = external ?? `http://localhost:${port}`;
// The demo users' password: fixed for the run so the sign-in fixture knows it.
process.env.DEMO_PASSWORD ??= "e2e-demo-password";
// Resolved once in the runner process and inherited by the server and every worker.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "plantdesk-e2e-"));

/**
 * Specs that start and stop servers of their own (each on a free port with its own DATA_DIR and
 * database) and never touch the shared `npm start` server: they form the second lane.
 */
const OWN_SERVER_SPECS = ["cluster.spec.ts", "oidc.spec.ts", "security.spec.ts", "server-limits.spec.ts", "spec-only-service.spec.ts"].map((file) => `**/${file}`);

export default defineConfig({
  testDir: "e2e",
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results/e2e",
  // Generous: the machine this runs on is shared by builds and other suites.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  // Two lanes, one worker each (README "Tests"): the specs against the one `npm start` server run
  // one file at a time, since they share its data and its per-user limits; the specs that start
  // servers of their own (own port, DATA_DIR and database) run beside them, mostly waiting for
  // their servers to start. The suite's wall time is then the longer lane, not the sum.
  workers: 2,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? "test-results/playwright.json" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    viewport: { width: 1366, height: 900 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [
    { name: "chromium", testIgnore: OWN_SERVER_SPECS, workers: 1, use: { ...devices["Desktop Chrome"], viewport: { width: 1366, height: 900 } } },
    { name: "own-servers", testMatch: OWN_SERVER_SPECS, workers: 1, use: { ...devices["Desktop Chrome"], viewport: { width: 1366, height: 900 } } },
  ],
  webServer: external
    ? undefined
    : {
        command: "npm start",
        url: `${baseURL}/signin`,
        // First start seeds SQLite and a few days of DuckDB telemetry.
        timeout: 180_000,
        reuseExistingServer: false,
        stdout: "pipe",
        stderr: "pipe",
        env: {
          PORT: String(port),
          HOST: "127.0.0.1",
          DATA_DIR: process.env.E2E_DATA_DIR,
          DEMO_PASSWORD: process.env.DEMO_PASSWORD,
          DEMO_TELEMETRY_DAYS: process.env.DEMO_TELEMETRY_DAYS ?? "3",
          // The test machine's broker (TEST_MQTT_URL elsewhere), so e2e/pipeline.spec.ts can publish
          // as an edge node; `npm start` itself takes no MQTT. One session and STATE topic per port:
          // a later run on the port takes the session over rather than leaving another at the broker.
          MQTT_URL: serviceAddress("mqtt").url,
          MQTT_CLIENT_ID: `plantdesk-e2e-${port}`,
          SPARKPLUG_HOST_ID: `plantdesk-e2e-${port}`,
          // e2e/alerting.spec.ts listens as the contact points' peers: a real SMTP server on port + 1
          // and a webhook receiver on port + 2 (loopback, so private destinations are allowed here).
          SMTP_URL: `smtp://127.0.0.1:${port + 1}`,
          SMTP_FROM: "Plantdesk <alerts@plantdesk.demo>",
          WEBHOOK_ALLOW_PRIVATE: "1",
          ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
        },
      },
});
