/**
 * The external services some test suites need (PostgreSQL, Redis, Mosquitto MQTT), where to find
 * them, and whether they answer. A probe is one TCP connect with a short time limit: enough to tell
 * "running" from "not there" without hanging a test run on a filtered port. Addresses default to
 * the local services of the development and CI machines; `TEST_POSTGRES_URL`, `TEST_REDIS_URL` and
 * `TEST_MQTT_URL` point the suites elsewhere.
 */
import net from "node:net";

/** Environment variables; a plain record so tests can pass a few without the whole process env. */
type Env = Readonly<Record<string, string | undefined>>;

export type ServiceName = "postgres" | "redis" | "mqtt";

interface ServiceAddress {
  name: ServiceName;
  /** What a suite connects with (a driver's connection URL). */
  url: string;
  host: string;
  port: number;
  /** The variable that overrides `url`. */
  envVar: string;
}

const DEFAULTS: Record<ServiceName, { envVar: string; url: string; port: number }> = {
  postgres: { envVar: "TEST_POSTGRES_URL", url: "postgres://postgres@127.0.0.1:5432/test", port: 5432 },
  redis: { envVar: "TEST_REDIS_URL", url: "redis://127.0.0.1:6379", port: 6379 },
  mqtt: { envVar: "TEST_MQTT_URL", url: "mqtt://127.0.0.1:1883", port: 1883 },
};

const SERVICE_NAMES = Object.keys(DEFAULTS) as ServiceName[];

export function serviceAddress(name: ServiceName, env: Env = process.env): ServiceAddress {
  const { envVar, url: fallback, port: defaultPort } = DEFAULTS[name];
  const url = env[envVar]?.trim() || fallback;
  const parsed = new URL(url);
  return { name, url, host: parsed.hostname || "127.0.0.1", port: parsed.port ? Number(parsed.port) : defaultPort, envVar };
}

export interface ServiceProbe extends ServiceAddress {
  available: boolean;
  /** Why not, in a few words (e.g. "connection refused"); absent when available. */
  reason?: string;
}

const PROBE_TIMEOUT_MS = 500;

function describeFailure(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "ENOTFOUND":
      return "host name not found";
    default:
      return error.code ?? error.message;
  }
}

export function probeService(address: ServiceAddress, timeoutMs = PROBE_TIMEOUT_MS): Promise<ServiceProbe> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address.host, port: address.port });
    const finish = (reason?: string) => {
      socket.destroy();
      resolve(reason ? { ...address, available: false, reason } : { ...address, available: true });
    };
    socket.setTimeout(timeoutMs, () => finish(`no answer within ${timeoutMs} ms`));
    socket.once("connect", () => finish());
    socket.once("error", (error) => finish(describeFailure(error)));
  });
}

/** Every service, probed in parallel (at most one probe time limit in all). */
export async function probeServices(env: Env = process.env): Promise<Record<ServiceName, ServiceProbe>> {
  const probes = await Promise.all(SERVICE_NAMES.map((name) => probeService(serviceAddress(name, env))));
  return Object.fromEntries(probes.map((probe) => [probe.name, probe])) as Record<ServiceName, ServiceProbe>;
}

/** Set in CI: a suite whose service is missing fails instead of being skipped. */
export function servicesRequired(env: Env = process.env): boolean {
  return env.PLANTDESK_REQUIRE_SERVICES === "1";
}

/** One line for a test run's log: which services answer, and what happens to the suites of the rest. */
export function summarizeServices(probes: ServiceProbe[], required: boolean): string {
  const states = probes.map((p) => `${p.name} ${p.host}:${p.port} ${p.available ? "answers" : `did not answer (${p.reason})`}`);
  const missing = probes.filter((p) => !p.available).map((p) => p.name);
  const outcome =
    missing.length === 0 ? "" : ` — suites that need ${missing.join(", ")} ${required ? "fail (PLANTDESK_REQUIRE_SERVICES=1)" : "are skipped"}`;
  return `Services: ${states.join("; ")}${outcome}`;
}
