/**
 * Which instance writes a stretch of demo telemetry into ClickHouse, when several instances share
 * one service database (docs/architecture.md, "Telemetry on ClickHouse"). A claim is one row of
 * `telemetry_demo_claims` (primary key customer + first minute) inserted with ON CONFLICT DO
 * NOTHING: of the instances that try at once exactly one inserts it. ClickHouse itself has no
 * insert-once row, so the claim lives where the instances already agree (PostgreSQL, or SQLite
 * for one instance).
 *
 * Two kinds use the one table:
 *   - a window of the live demo plant, keyed on its first minute (live/clickhouse-demo.ts);
 *   - the first-start seed of a customer's database, keyed on SEED_CLAIM_MINUTE (no real minute is
 *     negative), so two instances starting together on an empty ClickHouse seed it once.
 * A claim whose `claimed_at` is older than its stale age was left by an instance that died; it may
 * be taken over. The seed's claim is renewed while the seed runs, since a seed takes minutes.
 */
import type { SqlDb } from "../../../platform/sql";
import type { SeedClaims } from "./store";

/** The seed's key in `telemetry_demo_claims.from_minute`. */
export const SEED_CLAIM_MINUTE = -1;

/** "fresh": nobody held it; "taken-over": a dead instance held it (its partial work may be there); null: another instance holds it. */
type ClaimOutcome = "fresh" | "taken-over" | null;

interface DemoClaims {
  claim(customerId: string, fromMinute: number, toMinute: number, staleMs: number): Promise<ClaimOutcome>;
  /** Keeps a long claim alive (moves its `claimed_at` to now), if this instance still holds it. */
  renew(customerId: string, fromMinute: number): Promise<boolean>;
}

export function demoClaims(db: SqlDb, instance: string, now: () => Date = () => new Date()): DemoClaims {
  return {
    async claim(customerId, fromMinute, toMinute, staleMs) {
      const at = now();
      const insert = () =>
        db.run(`INSERT INTO telemetry_demo_claims (customer_id, from_minute, to_minute, claimed_by, claimed_at) VALUES (@customerId, @fromMinute, @toMinute, @instance, @at) ON CONFLICT (customer_id, from_minute) DO NOTHING`, {
          customerId,
          fromMinute,
          toMinute,
          instance,
          at: at.toISOString(),
        });
      if ((await insert()).changes === 1) return "fresh";
      const stale = await db.run(`DELETE FROM telemetry_demo_claims WHERE customer_id = @customerId AND from_minute = @fromMinute AND claimed_at < @now`, {
        customerId,
        fromMinute,
        now: new Date(at.getTime() - staleMs).toISOString(),
      });
      return stale.changes > 0 && (await insert()).changes === 1 ? "taken-over" : null;
    },
    async renew(customerId, fromMinute) {
      const renewed = await db.run(`UPDATE telemetry_demo_claims SET claimed_at = @claimedAt WHERE customer_id = @customerId AND from_minute = @fromMinute AND claimed_by = @instance`, {
        claimedAt: now().toISOString(),
        customerId,
        fromMinute,
        instance,
      });
      return renewed.changes === 1;
    },
  };
}

/** The first-start seed's claims (store.ts, SeedClaims): the one table, keyed on SEED_CLAIM_MINUTE. */
export function demoSeedClaims(db: SqlDb, instance: string, now?: () => Date): SeedClaims {
  const claims = demoClaims(db, instance, now);
  return {
    claim: (customerId, staleMs) => claims.claim(customerId, SEED_CLAIM_MINUTE, SEED_CLAIM_MINUTE, staleMs),
    renew: (customerId) => claims.renew(customerId, SEED_CLAIM_MINUTE),
  };
}
