/**
 * The telemetry pipeline as a user sees it (issue 22): an edge node — Eclipse Tahu's
 * `sparkplug-client`, as plants run it — publishes for a listed device through the machine's
 * Mosquitto to the started server (playwright.config.ts gives `npm start` the broker). Its readings
 * appear in the explorer and among the asset's current values; when the node dies (its connection
 * drops, the broker sends its Will, an NDEATH) the value is marked "Stale since …" in the reader's
 * time zone. axe-clean, no sideways scrolling, screenshots at 1440 and 390 px.
 */
import { randomBytes } from "node:crypto";
import sparkplugClient from "sparkplug-client";
import { probeService, serviceAddress, servicesRequired } from "@/lib/testing/services";
import { expect, expectAccessibleInBothThemes, saveScreenshot, test } from "./fixtures";

test.use({ role: "engineer", timezoneId: "Europe/Amsterdam", locale: "en-GB" });

const DEVICE = "RTM1-DEV-001";
const run = randomBytes(3).toString("hex");
const NAME = `E2E/Flow-${run}`;

type EdgeNode = ReturnType<typeof sparkplugClient.newClient>;

test("an edge node's readings appear in the explorer and on the asset page; its death marks them stale", async ({ page }) => {
  test.setTimeout(300_000);
  const broker = await probeService(serviceAddress("mqtt"));
  if (!broker.available) {
    const message = `no MQTT broker at ${broker.host}:${broker.port} (${broker.reason}); start Mosquitto or set TEST_MQTT_URL`;
    if (servicesRequired()) throw new Error(message);
    test.skip(true, message);
    return;
  }

  // The asset the demo device measures (its topology reference).
  const now = Date.now();
  const lookup = await page.request.post("/api/telemetry/query", {
    data: {
      query: `States | where DeviceId == "${DEVICE}" | take 1 | project tostring(MessageMetadata.topologyReference), tostring(MessageMetadata.jobId)`,
      startTime: new Date(now - 86_400_000).toISOString(),
      endTime: new Date(now).toISOString(),
      plantIds: ["RTM1"],
    },
  });
  expect(lookup.ok()).toBeTruthy();
  const [tag, owner] = ((await lookup.json()) as { data: { rows: [string, string][] } }).data.rows[0]!;

  // The edge node: births (name, alias, unit), then alias-only data every 2 s, as Tahu's client sends them.
  const edge: EdgeNode = sparkplugClient.newClient({
    serverUrl: broker.url,
    username: "",
    password: "",
    groupId: "RTM1",
    // The demo device belongs to its collector's edge node (docs/telemetry-ingest.md, "Device ownership"): this edge node is it.
    edgeNode: owner,
    clientId: `e2e-edge-${run}`,
    version: "spBv1.0",
    // Dies for good when its connection is cut (no reconnect, so no new births).
    mqttOptions: { reconnectPeriod: 0 },
  });
  let value = 12.5;
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve) => edge.on("birth", () => resolve()));
    const bornAt = Date.now();
    edge.publishNodeBirth({ timestamp: bornAt, metrics: [{ name: "Node Control/Rebirth", type: "Boolean", value: false }] });
    edge.publishDeviceBirth(DEVICE, {
      timestamp: bornAt,
      metrics: [{ name: NAME, alias: 1, type: "Double", value, timestamp: bornAt, properties: { engUnit: { type: "String", value: "m3/h" } } }],
    });
    timer = setInterval(() => {
      value += 0.25;
      edge.publishDeviceData(DEVICE, { timestamp: Date.now(), metrics: [{ alias: 1, type: "Double", value, timestamp: Date.now() }] });
    }, 2_000);

    // The explorer: the newest reading of the edge node's data point.
    const query = `States\n| where DeviceId == "${DEVICE}" and Name == "${NAME}"\n| summarize Readings = count(), Latest = max(Timestamp) by Name, Unit = tostring(DataMetadata.Unit)`;
    const params = new URLSearchParams({ q: query, range: "1h", plants: "RTM1", view: "table" });
    await page.goto(`/plants/RTM1/telemetry?${params}`);
    const row = page.getByRole("table").getByRole("row").filter({ hasText: NAME });
    await expect(async () => {
      await page.getByRole("button", { name: /^Run/ }).first().click();
      await expect(row).toContainText("m3/h", { timeout: 5_000 });
    }).toPass({ timeout: 90_000, intervals: [3_000] });

    // The asset page: the data point among the current values, current, with its unit.
    await page.goto(`/plants/RTM1/planned?asset=${encodeURIComponent(tag)}&range=1h`);
    const point = page.getByTestId("current-value").filter({ hasText: NAME });
    await expect(point).toBeVisible({ timeout: 60_000 });
    await expect(point).toHaveAttribute("data-state", "current");
    await expect(point).toContainText("m3/h");
    await expect(point).not.toContainText("Stale since");
  } finally {
    clearInterval(timer);
    // The node dies: its connection drops without a DISCONNECT, so the broker publishes its Will (NDEATH).
    (edge as unknown as { client: { stream: { destroy(): void } } }).client.stream.destroy();
  }
  const diedAt = Date.now();

  // Without a reload: the current values refresh every 30 s.
  const point = page.getByTestId("current-value").filter({ hasText: NAME });
  await expect(point).toHaveAttribute("data-state", "stale", { timeout: 90_000 });
  const badge = point.getByText(/^Stale since/);
  await expect(badge).toBeVisible();
  await expect(point).toContainText("went offline");
  // In the reader's zone (Europe/Amsterdam here), to the minute of the death.
  const expected = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Amsterdam" });
  const candidates = [expected.format(diedAt - 60_000), expected.format(diedAt), expected.format(diedAt + 60_000)];
  const text = (await badge.textContent()) ?? "";
  expect(candidates.some((time) => text.startsWith(`Stale since ${time}`)), `${text} names one of ${candidates.join(", ")}`).toBe(true);

  // The demo device's own data points stay current.
  await expect(page.getByTestId("current-value").filter({ hasText: /^Temperature/ }).first()).toHaveAttribute("data-state", "current");

  await expectAccessibleInBothThemes(page);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    await page.waitForTimeout(400);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(sideways, `no sideways scrolling at ${width} px`).toBeLessThanOrEqual(0);
    await point.scrollIntoViewIfNeeded();
    await saveScreenshot(page, `pipeline-stale-${width}`, { fullPage: false });
  }
});
