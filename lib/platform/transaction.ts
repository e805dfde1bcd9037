/**
 * BEGIN … COMMIT around some work on one connection, ROLLBACK when it throws (the work's error is
 * the one reported, not a failed rollback's). Shared by the PostgreSQL pool and the DuckDB writer:
 * each passes how it runs a statement on its connection.
 */
export async function inTransaction<T>(exec: (sql: string) => Promise<unknown>, work: () => Promise<T>, begin = "BEGIN"): Promise<T> {
  await exec(begin);
  try {
    const value = await work();
    await exec("COMMIT");
    return value;
  } catch (error) {
    await exec("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
