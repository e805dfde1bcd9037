/**
 * Telemetry OAuth clients (docs/api.md §5): created by an operator command, owned by one customer,
 * revocable. The secret is 256 random bits shown once; only its SHA-256 is stored (a slow hash buys
 * nothing for a secret of that entropy) and it is compared in constant time.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { SqlDb, SqlExecutor } from "../../../platform/sql";

interface TelemetryClientInfo {
  clientId: string;
  customerId: string;
  /** Who the client is for; `null` for clients created by the operator command. */
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface CreatedTelemetryClient {
  client_id: string;
  /** Returned once, never stored. */
  client_secret: string;
  scope: string;
  customerId: string;
}

export interface TelemetryClients {
  /** Throws when the customer does not exist. */
  create(customerId: string, options?: { label?: string; now?: Date }): Promise<CreatedTelemetryClient>;
  /**
   * Revokes the customer's active clients with this label and creates one new client with it, in
   * one transaction: the dashboard's own client in embedded mode, renewed at each start.
   */
  replaceLabelled(customerId: string, label: string): Promise<CreatedTelemetryClient>;
  list(): Promise<TelemetryClientInfo[]>;
  /** False when no client has this id. Revoking twice keeps the first revocation time. */
  revoke(clientId: string, now?: Date): Promise<boolean>;
  /** The client when id and secret match a client that is not revoked. */
  authenticate(clientId: string, secret: string): Promise<{ clientId: string; customerId: string } | undefined>;
  /** The customer of a client that exists and is not revoked (checked on every query). */
  activeCustomer(clientId: string): Promise<string | undefined>;
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Compared against when the client id is unknown, so both paths cost the same. */
const DUMMY_HASH = sha256("no such client");

const ACTIVE_BY_ID = `SELECT customer_id AS "customerId", secret_hash AS "secretHash" FROM telemetry_clients WHERE client_id = @clientId AND revoked_at IS NULL`;

export function createTelemetryClients(db: SqlDb, resourceId: string, customerIds: ReadonlySet<string>): TelemetryClients {
  async function create(
    executor: SqlExecutor,
    customerId: string,
    { label, now = new Date() }: { label?: string; now?: Date } = {},
  ): Promise<CreatedTelemetryClient> {
    if (!customerIds.has(customerId)) throw new Error(`Unknown customer '${customerId}'.`);
    const clientId = randomUUID();
    const secret = `pdt_${randomBytes(32).toString("base64url")}`;
    await executor.run(`INSERT INTO telemetry_clients (client_id, customer_id, secret_hash, label, created_at) VALUES (@clientId, @customerId, @secretHash, @label, @now)`, {
      clientId,
      customerId,
      secretHash: sha256(secret).toString("hex"),
      label: label ?? null,
      now: now.toISOString(),
    });
    return { client_id: clientId, client_secret: secret, scope: `${resourceId}/.default`, customerId };
  }

  return {
    create: (customerId, options) => create(db, customerId, options),
    replaceLabelled: (customerId, label) =>
      db.transaction(async (tx) => {
        const now = new Date();
        await tx.run(`UPDATE telemetry_clients SET revoked_at = @now WHERE customer_id = @customerId AND label = @label AND revoked_at IS NULL`, {
          now: now.toISOString(),
          customerId,
          label,
        });
        return create(tx, customerId, { label, now });
      }),
    list: () =>
      db.all<TelemetryClientInfo>(
        `SELECT client_id AS "clientId", customer_id AS "customerId", label, created_at AS "createdAt", revoked_at AS "revokedAt"
         FROM telemetry_clients ORDER BY created_at, client_id`,
      ),
    async revoke(clientId, now = new Date()) {
      const { changes } = await db.run(`UPDATE telemetry_clients SET revoked_at = coalesce(revoked_at, @now) WHERE client_id = @clientId`, {
        now: now.toISOString(),
        clientId,
      });
      return changes > 0;
    },
    async authenticate(clientId, secret) {
      const row = await db.get<{ customerId: string; secretHash: string }>(ACTIVE_BY_ID, { clientId });
      const expected = row ? Buffer.from(row.secretHash, "hex") : DUMMY_HASH;
      const matches = timingSafeEqual(sha256(secret), expected);
      return row && matches ? { clientId, customerId: row.customerId } : undefined;
    },
    async activeCustomer(clientId) {
      return (await db.get<{ customerId: string }>(ACTIVE_BY_ID, { clientId }))?.customerId;
    },
  };
}
