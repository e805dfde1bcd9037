/**
 * The executor on chdb: ClickHouse embedded in this process (npm `chdb`, a development
 * dependency), for tests and benchmarks. Sends exactly what the HTTP executor sends.
 * chdb allows one session per process: open it once and share it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Session } from "chdb";
import { OutputTooLarge, type ClickHouseExecutor } from "./executor";

/** A SQL string literal. */
const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
const settingsClause = (settings: Record<string, string>) => {
  const list = Object.entries(settings).map(([key, value]) => `${key} = ${quote(value)}`);
  return list.length ? `SETTINGS ${list.join(", ")} ` : "";
};

export function chdbExecutor(dataDir: string): ClickHouseExecutor {
  const session = new Session(dataDir);
  /** Binary rows go through a file of their own (`FROM INFILE`): a statement's text cannot carry them. */
  let spool: string | null = null;
  let spooled = 0;
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
      await session.queryBindAsync(statement(`file(${quote(file)}, Parquet, ${quote(structure)})`), {});
    },
    async insertJsonRows(table, rows, settings = {}) {
      await session.queryBindAsync(`INSERT INTO ${table} ${settingsClause(settings)}FORMAT JSONEachRow\n${rows}`, {});
    },
    async insertRowBinary(table, columns, rows, settings = {}) {
      spool ??= fs.mkdtempSync(path.join(os.tmpdir(), "plantdesk-chdb-rows-"));
      const file = path.join(spool, `rows-${++spooled}`);
      fs.writeFileSync(file, rows);
      try {
        await session.queryBindAsync(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(", ")}) FROM INFILE ${quote(file)} ${settingsClause(settings)}FORMAT RowBinary`, {});
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
    async close() {
      session.close();
      if (spool) fs.rmSync(spool, { recursive: true, force: true });
    },
  };
}
