/**
 * A PostgreSQL schema of its own for one test file: `CREATE SCHEMA pd_test_<random>` on the test
 * server, and a connection URL whose connections work in it (`search_path`), so parallel runs
 * and parallel test files never see each other's tables. `drop()` removes it with everything in it.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestSchema {
  schema: string;
  /** The server's URL with `options=-c search_path=<schema>`. */
  url: string;
  drop(): Promise<void>;
}

export async function createTestSchema(serverUrl: string): Promise<TestSchema> {
  const schema = `pd_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
