/** One versioned schema change of the SQLite database (applied once, in a transaction). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
