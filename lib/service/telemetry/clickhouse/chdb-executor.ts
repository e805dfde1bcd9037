/**
 * The executor on chdb: ClickHouse embedded in this process (npm `chdb`, a development
 * dependency), for tests and benchmarks. Sends exactly what the HTTP executor sends.
 * chdb allows one session per process: open it once and share it.
 */
import { Session } from "chdb";
import { OutputTooLarge, type ClickHouseExecutor } from "./executor";

export function chdbExecutor(dataDir: string): ClickHouseExecutor {
  const session = new Session(dataDir);
  return {
    async query(sql, params, signal, maxBytes = Infinity) {
      // In process, chdb hands over the whole output at once; the limit is the HTTP executor's contract all the same.
      const bytes = (await session.queryBindAsync(sql, params, { signal })).bytes();
      if (bytes.length > maxBytes) throw new OutputTooLarge(maxBytes);
      return bytes;
    },
    async command(sql, params = {}) {
      await session.queryBindAsync(sql, params);
    },
    async insertParquet(file, structure, statement) {
      // The path is the store's own temporary file, quoted as a literal (a table function takes no parameters).
      const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
      await session.queryBindAsync(statement(`file(${quote(file)}, Parquet, ${quote(structure)})`), {});
    },
    async insertJsonRows(table, rows, settings = {}) {
      const with_ = Object.entries(settings).map(([key, value]) => `${key} = '${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`);
      await session.queryBindAsync(`INSERT INTO ${table} ${with_.length ? `SETTINGS ${with_.join(", ")} ` : ""}FORMAT JSONEachRow\n${rows}`, {});
    },
    async close() {
      session.close();
    },
  };
}
