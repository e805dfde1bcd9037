/**
 * The page of a list query, shared by every list of the store: one count and one page query over
 * the same WHERE. What is particular to this store is the totals cache (countTotals): SQLite reuses
 * the totals of recent queries, PostgreSQL counts every time (why: at countTotals).
 */
import type { TPage } from "@/lib/contract/common";
import type { SqlDb, SqlExecutor, SqlParams, SqlRow } from "@/lib/platform/sql";

export type Row = SqlRow;
export type Params = SqlParams;

export interface PageRequest {
  page: number;
  pageSize: number;
}

/**
 * One count and one page query over the same WHERE. `from` and `where` are fixed SQL built from
 * the filter's shape, never from its values (those go in as parameters). The count skips the
 * asset join unless an asset filter needs it: counting is the larger part of a page's cost.
 * `arrays`: rows reach `map` as arrays in column order.
 */
export type Pager = <T>(
  from: { table: string; assetJoin?: string },
  where: string[],
  params: Params,
  columns: string,
  orderBy: string,
  request: PageRequest,
  map: (rows: Row[]) => T[] | Promise<T[]>,
  arrays?: boolean,
) => Promise<TPage<T>>;

/**
 * The total of a list query (`SELECT count(*) AS total …`). On SQLite, totals of recent queries are
 * reused until the database changes: counting is a scan of the plant's index, and most reads repeat
 * the same filter. A change is any write on this connection (total_changes) or a commit by another
 * one, e.g. the operator CLI (data_version). PostgreSQL, shared by several instances, counts every time.
 */
function countTotals(sql: SqlExecutor): (text: string, params: Params) => Promise<number> {
  const count = async (text: string, params: Params) => (await sql.get<{ total: number }>(text, params))!.total;
  if (sql.engine !== "sqlite") return count;
  const MARKER = `SELECT total_changes() || '/' || (SELECT data_version FROM pragma_data_version) AS marker`;
  const totals = new Map<string, number>();
  let totalsMarker = "";
  return async (text, params) => {
    const { marker } = (await sql.get<{ marker: string }>(MARKER))!;
    if (marker !== totalsMarker) {
      totals.clear();
      totalsMarker = marker;
    }
    const key = `${text}\u0000${JSON.stringify(params)}`;
    let total = totals.get(key);
    if (total === undefined) {
      total = await count(text, params);
      // Kept only if nothing changed the database since `marker` as far as this cache has seen:
      // another call may have found a newer marker while this one counted.
      if (totalsMarker === marker) {
        if (totals.size >= 1000) totals.clear(); // bounded: filters are client-chosen
        totals.set(key, total);
      }
    }
    return total;
  };
}

/** The pager of one store: its totals cache lives as long as the store. */
export function createPager(engine: SqlDb): Pager {
  const countTotal = countTotals(engine);
  return async (from, where, params, columns, orderBy, request, map, arrays = false) => {
    const whereSql = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
    const joined = from.assetJoin ? `${from.table} ${from.assetJoin}` : from.table;
    const countFrom = where.some((condition) => condition.startsWith("a.")) ? joined : from.table;
    const total = await countTotal(`SELECT count(*) AS total FROM ${countFrom} ${whereSql}`, params);
    const totalPages = Math.ceil(total / request.pageSize);
    const offset = (request.page - 1) * request.pageSize;
    if (offset >= total) return { data: [], page: request.page, totalPages, pageSize: request.pageSize };
    const sql = `SELECT ${columns} FROM ${joined} ${whereSql} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`;
    const pageParams = { ...params, limit: request.pageSize, offset };
    const found = arrays ? ((await engine.arrays(sql, pageParams)) as unknown as Row[]) : await engine.all(sql, pageParams);
    return { data: await map(found), page: request.page, totalPages, pageSize: request.pageSize };
  };
}
