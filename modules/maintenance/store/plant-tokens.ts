/**
 * Plant-scoped bearer tokens of the maintenance interface (docs/api.md §5): opaque random strings,
 * shown once when issued and stored only as their SHA-256. Every request looks its token up again,
 * so a revocation or an expiry takes effect on the next request (nothing is cached).
 */
import { createHash, randomBytes } from "node:crypto";
import type { SqlDb } from "@/lib/platform/sql";

interface PlantTokenInfo {
  id: string;
  plantId: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

interface IssuedPlantToken {
  id: string;
  /** The secret itself: returned once, never stored. */
  token: string;
  plantId: string;
  expiresAt: string | null;
}

export interface PlantTokens {
  issue(plantId: string, options?: { expiresInDays?: number; now?: Date }): Promise<IssuedPlantToken>;
  list(): Promise<PlantTokenInfo[]>;
  /** False when no token has this id. Revoking twice keeps the first revocation time. */
  revoke(id: string): Promise<boolean>;
  /** The token's id and plant when it is known, not revoked and not expired; otherwise undefined. */
  verify(token: string, now?: Date): Promise<{ id: string; plantId: string } | undefined>;
}

function sha256(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function createPlantTokens(db: SqlDb): PlantTokens {
  return {
    async issue(plantId, { expiresInDays, now = new Date() } = {}) {
      const id = `pt_${randomBytes(6).toString("hex")}`;
      const token = `pdm_${randomBytes(32).toString("base64url")}`;
      const expiresAt =
        expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * 86_400_000).toISOString();
      await db.run(`INSERT INTO plant_tokens (id, plant_id, token_hash, created_at, expires_at) VALUES (@id, @plantId, @tokenHash, @now, @expiresAt)`, {
        id,
        plantId,
        tokenHash: sha256(token),
        now: now.toISOString(),
        expiresAt,
      });
      return { id, token, plantId, expiresAt };
    },
    list: () =>
      db.all<PlantTokenInfo>(
        `SELECT id, plant_id AS "plantId", created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt"
         FROM plant_tokens ORDER BY created_at, id`,
      ),
    async revoke(id) {
      const { changes } = await db.run(`UPDATE plant_tokens SET revoked_at = coalesce(revoked_at, @now) WHERE id = @id`, { now: new Date().toISOString(), id });
      return changes > 0;
    },
    verify: (token, now = new Date()) =>
      db.get<{ id: string; plantId: string }>(
        `SELECT id, plant_id AS "plantId" FROM plant_tokens
         WHERE token_hash = @tokenHash AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > @now)`,
        { tokenHash: sha256(token), now: now.toISOString() },
      ),
  };
}
