/** The reliability record's two reads (reliability.ts): the plant's asset tree, and its failure jobs summed per asset, code and month. */
import type { SqlDb } from "@/lib/platform/sql";

export interface FailureGroup {
  tag: string;
  code: string;
  month: string;
  failures: number;
  downtime: number;
}

export interface ReliabilityReads {
  assetTree(plantId: string): Promise<{ tag: string; parent: string | null; name: string }[]>;
  failureGroups(plantId: string, startDate: string, endDate: string): Promise<FailureGroup[]>;
}

export function createReliabilityReads(db: SqlDb): ReliabilityReads {
  return {
    assetTree: (plantId) => db.all(`SELECT tag_number AS tag, parent_tag_number AS parent, name FROM assets WHERE plant_id = @plantId`, { plantId }),
    async failureGroups(plantId, startDate, endDate) {
      const rows = await db.all<{ tag: string; code: string; month: string; failures: number; downtime: number }>(
        `SELECT a.tag_number AS tag, j.failure_code AS code, substr(j.done_date, 1, 7) AS month, count(*) AS failures,
           sum(CAST(coalesce(j.downtime_hours, j.total_time_used_in_hours) AS DOUBLE PRECISION)) AS downtime
         FROM jobs_done j JOIN assets a ON a.id = j.asset_id
         WHERE j.plant_id = @plantId AND j.done_date >= @startDate AND j.done_date <= @endDate AND j.failure_code IS NOT NULL
         GROUP BY a.tag_number, j.failure_code, substr(j.done_date, 1, 7)`,
        { plantId, startDate, endDate },
      );
      return rows.map((row) => ({ ...row, failures: Number(row.failures), downtime: Number(row.downtime) }));
    },
  };
}
