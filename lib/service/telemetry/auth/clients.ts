/**
 * Telemetry OAuth clients (decisions.md §5): created by an operator command, owned by one customer,
 * revocable. The secret is 256 random bits shown once; only its SHA-256 is stored (a slow hash buys
 * nothing for a secret of that entropy) and it is compared in constant time.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { SqliteDatabase } from "../../store/sqlite";

export interface TelemetryClientInfo {
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
  create(customerId: string, options?: { label?: string; now?: Date }): CreatedTelemetryClient;
  /**
   * Revokes the customer's active clients with this label and creates one new client with it, in
   * one transaction: the dashboard's own client in embedded mode, renewed at each start.
   */
  replaceLabelled(customerId: string, label: string): CreatedTelemetryClient;
  list(): TelemetryClientInfo[];
  /** False when no client has this id. Revoking twice keeps the first revocation time. */
  revoke(clientId: string, now?: Date): boolean;
  /** The client when id and secret match a client that is not revoked. */
  authenticate(clientId: string, secret: string): { clientId: string; customerId: string } | undefined;
  /** The customer of a client that exists and is not revoked (checked on every query). */
  activeCustomer(clientId: string): string | undefined;
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Compared against when the client id is unknown, so both paths cost the same. */
const DUMMY_HASH = sha256("no such client");

export function createTelemetryClients(db: SqliteDatabase, resourceId: string): TelemetryClients {
  const customerExists = db.prepare(`SELECT 1 FROM customers WHERE id = ?`);
  const insert = db.prepare(
    `INSERT INTO telemetry_clients (client_id, customer_id, secret_hash, label, created_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const all = db.prepare(
    `SELECT client_id AS clientId, customer_id AS customerId, label, created_at AS createdAt, revoked_at AS revokedAt
     FROM telemetry_clients ORDER BY created_at, client_id`,
  );
  const revoke = db.prepare(`UPDATE telemetry_clients SET revoked_at = coalesce(revoked_at, ?) WHERE client_id = ?`);
  const revokeLabelled = db.prepare(
    `UPDATE telemetry_clients SET revoked_at = ? WHERE customer_id = ? AND label = ? AND revoked_at IS NULL`,
  );
  const byId = db.prepare(
    `SELECT customer_id AS customerId, secret_hash AS secretHash FROM telemetry_clients WHERE client_id = ? AND revoked_at IS NULL`,
  );

  function create(customerId: string, { label, now = new Date() }: { label?: string; now?: Date } = {}): CreatedTelemetryClient {
    if (!customerExists.get(customerId)) throw new Error(`Unknown customer '${customerId}'.`);
    const clientId = randomUUID();
    const secret = `pdt_${randomBytes(32).toString("base64url")}`;
    insert.run(clientId, customerId, sha256(secret).toString("hex"), label ?? null, now.toISOString());
    return { client_id: clientId, client_secret: secret, scope: `${resourceId}/.default`, customerId };
  }

  const replaceLabelled = db.transaction((customerId: string, label: string): CreatedTelemetryClient => {
    const now = new Date();
    revokeLabelled.run(now.toISOString(), customerId, label);
    return create(customerId, { label, now });
  });

  return {
    create,
    replaceLabelled: (customerId, label) => replaceLabelled(customerId, label),
    list() {
      return all.all() as TelemetryClientInfo[];
    },
    revoke(clientId, now = new Date()) {
      return revoke.run(now.toISOString(), clientId).changes > 0;
    },
    authenticate(clientId, secret) {
      const row = byId.get(clientId) as { customerId: string; secretHash: string } | undefined;
      const expected = row ? Buffer.from(row.secretHash, "hex") : DUMMY_HASH;
      const matches = timingSafeEqual(sha256(secret), expected);
      return row && matches ? { clientId, customerId: row.customerId } : undefined;
    },
    activeCustomer(clientId) {
      return (byId.get(clientId) as { customerId: string } | undefined)?.customerId;
    },
  };
}
