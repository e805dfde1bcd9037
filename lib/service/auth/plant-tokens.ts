/**
 * Plant-scoped bearer tokens of the maintenance interface (decisions.md §5): opaque random strings,
 * shown once when issued and stored only as their SHA-256. Every request looks its token up again,
 * so a revocation or an expiry takes effect on the next request (nothing is cached).
 */
import { createHash, randomBytes } from "node:crypto";
import type { SqliteDatabase } from "../store/sqlite";

export interface PlantTokenInfo {
  id: string;
  plantId: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface IssuedPlantToken {
  id: string;
  /** The secret itself: returned once, never stored. */
  token: string;
  plantId: string;
  expiresAt: string | null;
}

export interface PlantTokens {
  issue(plantId: string, options?: { expiresInDays?: number; now?: Date }): IssuedPlantToken;
  list(): PlantTokenInfo[];
  /** False when no token has this id. Revoking twice keeps the first revocation time. */
  revoke(id: string): boolean;
  /** The token's id and plant when it is known, not revoked and not expired; otherwise undefined. */
  verify(token: string, now?: Date): { id: string; plantId: string } | undefined;
}

function sha256(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function createPlantTokens(db: SqliteDatabase): PlantTokens {
  const insert = db.prepare(
    `INSERT INTO plant_tokens (id, plant_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const all = db.prepare(
    `SELECT id, plant_id AS plantId, created_at AS createdAt, expires_at AS expiresAt, revoked_at AS revokedAt
     FROM plant_tokens ORDER BY created_at, id`,
  );
  const revoke = db.prepare(`UPDATE plant_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`);
  const byHash = db.prepare(
    `SELECT id, plant_id AS plantId FROM plant_tokens
     WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
  );

  return {
    issue(plantId, { expiresInDays, now = new Date() } = {}) {
      const id = `pt_${randomBytes(6).toString("hex")}`;
      const token = `pdm_${randomBytes(32).toString("base64url")}`;
      const expiresAt =
        expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * 86_400_000).toISOString();
      db.transaction(() => insert.run(id, plantId, sha256(token), now.toISOString(), expiresAt))();
      return { id, token, plantId, expiresAt };
    },
    list: () => all.all() as PlantTokenInfo[],
    revoke: (id) => db.transaction(() => revoke.run(new Date().toISOString(), id).changes > 0)(),
    verify(token, now = new Date()) {
      return byHash.get(sha256(token), now.toISOString()) as { id: string; plantId: string } | undefined;
    },
  };
}
