/**
 * TEST-ONLY: the ratchet of the documentation examples: per engine, the ids of the examples of
 * docs-examples.json that give the printed answer and must keep giving it (conformance/docs.test.ts).
 * Grows with `npm run conformance:docs -- --write-passing`.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

export const DOCS_PASSING_PATH = "lib/kql/testing/docs-passing.json";

const passing = z.object({ duckdb: z.array(z.string()), clickhouse: z.array(z.string()) });
type Passing = z.infer<typeof passing>;

export function readPassing(root = process.cwd()): Passing {
  const file = path.join(root, DOCS_PASSING_PATH);
  return fs.existsSync(file) ? passing.parse(JSON.parse(fs.readFileSync(file, "utf8"))) : { duckdb: [], clickhouse: [] };
}
