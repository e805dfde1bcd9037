/**
 * The primary host's Sparkplug state in the service's database (migration 020): each edge node's
 * and device's last birth and each node's next sequence number, so a restart or another instance
 * taking over the host role carries on where the last holder stopped (sparkplug.ts). SQLite for
 * one instance, PostgreSQL shared by several.
 */
import type { SqlDb } from "../../../platform/sql";
import type { BirthMetric, SparkplugStateStore } from "./sparkplug";

export function sqlSparkplugState(db: SqlDb, now: () => Date = () => new Date()): SparkplugStateStore {
  return {
    async loadBirths() {
      const rows = await db.all<{ key: string; metrics: string }>(`SELECT session_key AS "key", metrics FROM sparkplug_births`);
      return rows.map((row) => [row.key, JSON.parse(row.metrics) as [string, BirthMetric][]]);
    },
    async loadSequences() {
      const rows = await db.all<{ node: string; next: number }>(`SELECT node_key AS "node", next_seq AS "next" FROM sparkplug_sequences`);
      return rows.map((row) => [row.node, Number(row.next)]);
    },
    async saveBirth(key, metrics) {
      if (metrics === null) {
        await db.run(`DELETE FROM sparkplug_births WHERE session_key = @key`, { key });
        return;
      }
      await db.run(
        `INSERT INTO sparkplug_births (session_key, metrics, updated_at) VALUES (@key, @metrics, @updatedAt)
         ON CONFLICT (session_key) DO UPDATE SET metrics = excluded.metrics, updated_at = excluded.updated_at`,
        { key, metrics: JSON.stringify(metrics), updatedAt: now().toISOString() },
      );
    },
    async saveSequences(sequences) {
      if (sequences.length === 0) return;
      await db.transaction(async (tx) => {
        for (const [node, next] of sequences) {
          await tx.run(
            `INSERT INTO sparkplug_sequences (node_key, next_seq, updated_at) VALUES (@node, @next, @updatedAt)
             ON CONFLICT (node_key) DO UPDATE SET next_seq = excluded.next_seq, updated_at = excluded.updated_at`,
            { node, next, updatedAt: now().toISOString() },
          );
        }
      });
    },
  };
}
