/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native addons must be loaded by Node at run time, not bundled.
  // plantdesk-host: the pages' one way to the server scripts/serve.ts started (docs/architecture.md,
  // "One server in the process"); required at run time, so pages and server share it.
  serverExternalPackages: ["@duckdb/node-api", "better-sqlite3", "ioredis", "plantdesk-host"],
  // A second build directory lets a test or benchmark build run beside a developer's server.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
