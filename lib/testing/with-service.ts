/**
 * `describeWithService("postgres", "suite", (service) => { … })`: a Vitest suite that needs an
 * external service. It runs when the service answers; otherwise it is skipped with one plain line
 * on the console saying which suite and why — or, with `PLANTDESK_REQUIRE_SERVICES=1` (CI), it
 * fails, so a missing service can never pass as a silent skip. Skipped tests are not counted as
 * passed by `npm test`.
 */
import { describe, it } from "vitest";
import { probeServices, servicesRequired, type ServiceName, type ServiceProbe } from "./services";

// Probed once per test file that imports this (a few milliseconds when the services run).
const probes = await probeServices();

export function describeWithService(service: ServiceName, name: string, suite: (service: ServiceProbe) => void): void {
  const probe = probes[service];
  if (probe.available) {
    describe(name, () => suite(probe));
    return;
  }
  const why = `${service} at ${probe.host}:${probe.port} did not answer (${probe.reason})`;
  if (servicesRequired()) {
    describe(name, () => {
      it(`needs ${service}`, () => {
        throw new Error(`${why}, and PLANTDESK_REQUIRE_SERVICES=1 makes that a failure: start ${service} or set ${probe.envVar}.`);
      });
    });
    return;
  }
  // Straight to stderr, not console.log: Vitest buffers console output under a per-file header.
  process.stderr.write(`skipped suite "${name}": ${why}; start it or set ${probe.envVar}.\n`);
  describe.skip(name, () => suite(probe));
}
