import "server-only";
/**
 * Embedded mode's credentials: at start the dashboard provisions its own plant tokens and one
 * telemetry client per customer through the service's own stores, exactly as an operator would
 * with the CLI, and keeps the secrets in this process's memory only (the database holds hashes).
 * Plant tokens are issued for a day and renewed before they lapse, so the tokens of a stopped
 * process expire on their own instead of piling up as live credentials.
 */
import type { ServiceRuntime } from "@/lib/service/runtime";
import type { Credentials, PlantInfo, TelemetryCredentials } from "./client";

const TOKEN_DAYS = 1;
const RENEW_BEFORE_MS = 60 * 60 * 1000;

export type IssueTelemetryClient = (customerId: string) => { clientId: string; clientSecret: string };

export function embeddedCredentials(runtime: ServiceRuntime, issueTelemetryClient: IssueTelemetryClient, resourceId: string): Credentials {
  const { plantTokens } = runtime;
  const plants = runtime.db
    .prepare("SELECT id, name, customer_id AS customerId FROM plants ORDER BY id")
    .all() as PlantInfo[];
  const known = new Set(plants.map((plant) => plant.id));
  const tokens = new Map<string, { id: string; token: string; renewAt: number }>();
  const clients = new Map<string, TelemetryCredentials>();

  return {
    plants: () => plants,
    plantToken(plantId) {
      if (!known.has(plantId)) return null;
      const held = tokens.get(plantId);
      if (held && Date.now() < held.renewAt) return held.token;
      const issued = plantTokens.issue(plantId, { expiresInDays: TOKEN_DAYS });
      if (held) plantTokens.revoke(held.id);
      tokens.set(plantId, { id: issued.id, token: issued.token, renewAt: Date.parse(issued.expiresAt!) - RENEW_BEFORE_MS });
      return issued.token;
    },
    telemetryClient(customerId) {
      if (!customerId) return null;
      let client = clients.get(customerId);
      if (!client) {
        client = { ...issueTelemetryClient(customerId), scope: `${resourceId}/.default` };
        clients.set(customerId, client);
      }
      return client;
    },
  };
}
