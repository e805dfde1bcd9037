/**
 * Test support: the MQTT broker of the test run, through the project's one service probe
 * (lib/testing/services.ts: 127.0.0.1:1883 or TEST_MQTT_URL). Tests that need it run when it
 * answers and print one plain line when skipped; with PLANTDESK_REQUIRE_SERVICES=1 (CI) a missing
 * broker fails them instead.
 */
import { probeServices, servicesRequired } from "@/lib/testing/services";

const probe = (await probeServices()).mqtt;

export const TEST_BROKER_URL = probe.url;

/** True when the broker answers; false (with a printed line) when the suite should be skipped. */
export async function brokerForTests(suite: string): Promise<boolean> {
  if (probe.available) return true;
  const message = `${suite}: no MQTT broker at ${probe.url} (${probe.reason}); start one (mosquitto -d -c /etc/mosquitto/mosquitto.conf) or set ${probe.envVar}`;
  if (servicesRequired()) throw new Error(`${message}; PLANTDESK_REQUIRE_SERVICES=1 requires it`);
  process.stderr.write(`skipped suite "${suite}": ${message}\n`);
  return false;
}
