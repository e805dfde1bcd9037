import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Tests run server code outside React's server condition, where "server-only" would throw.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "modules/**/*.test.ts", "modules/**/*.test.tsx", "components/**/*.test.ts", "components/**/*.test.tsx", "scripts/**/*.test.ts", "app/**/*.test.ts"],
    environment: "node",
    setupFiles: ["lib/testing/fast-check-seed.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // DuckDB and SQLite files are per test file; two workers match the machine's two cores.
    pool: "forks",
    maxWorkers: 2,
  },
});
