/**
 * Idempotency keys of the writes that take one (task creation, close-out): the stored response of
 * a key is found first, and a new key is inserted in the same transaction as the write it answers
 * for, `ON CONFLICT DO NOTHING`. A key stored first by another writer (PostgreSQL: another
 * instance) rolls the write back (StoredElsewhere) and the stored response is answered instead.
 */
import type { SqlDb, SqlExecutor } from "@/lib/platform/sql";

export interface IdempotencyRecord {
  requestHash: string;
  responseBody: string;
}

export interface IdempotencyReads {
  findIdempotencyRecord(plantId: string, key: string): Promise<IdempotencyRecord | undefined>;
}

export const IDEMPOTENCY_BY_KEY = `SELECT request_hash AS "requestHash", response_body AS "responseBody" FROM idempotency_keys WHERE plant_id = @plantId AND key = @key`;

/** Thrown inside a transaction to roll it back and answer a stored idempotent response instead. */
export class StoredElsewhere {
  constructor(readonly record: IdempotencyRecord) {}
}

/** Inside the write's transaction: keeps the key's response, or throws StoredElsewhere when another writer kept one first. */
export async function keepIdempotentResponse(
  tx: SqlExecutor,
  row: { plantId: string; key: string; requestHash: string; responseBody: string; now: string },
): Promise<void> {
  const { changes: inserted } = await tx.run(
    `INSERT INTO idempotency_keys (plant_id, key, request_hash, response_body, created_at)
     VALUES (@plantId, @key, @requestHash, @responseBody, @now) ON CONFLICT (plant_id, key) DO NOTHING`,
    row,
  );
  if (inserted === 0) throw new StoredElsewhere((await tx.get<IdempotencyRecord>(IDEMPOTENCY_BY_KEY, { plantId: row.plantId, key: row.key }))!);
}

export function idempotencyReads(engine: SqlDb): IdempotencyReads {
  return {
    findIdempotencyRecord: (plantId, key) => engine.get<IdempotencyRecord>(IDEMPOTENCY_BY_KEY, { plantId, key }),
  };
}
