/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native addons must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["@duckdb/node-api", "better-sqlite3", "ioredis"],
  // A second build directory lets a test or benchmark build run beside a developer's server.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
