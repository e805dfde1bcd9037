/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native addons must be loaded by Node at run time, not bundled.
  // plantdesk-host: the pages' one way to the server scripts/serve.ts started (docs/architecture.md,
  // "One server in the process"); required at run time, so pages and server share it.
  serverExternalPackages: ["@duckdb/node-api", "better-sqlite3", "ioredis", "plantdesk-host"],
  // A second build directory lets a test or benchmark build run beside a developer's server.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // `npm test` type-checks the whole project (tsc --noEmit) before it builds, and says so with
  // PLANTDESK_TYPECHECKED=1: the build then skips checking the same sources again (a minute or more
  // of a 2-core machine). Every other build, `npm start`'s first one included, checks them.
  typescript: { ignoreBuildErrors: process.env.PLANTDESK_TYPECHECKED === "1" },
  reactStrictMode: true,
};

export default nextConfig;
