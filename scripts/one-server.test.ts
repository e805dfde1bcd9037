/**
 * One server in the process (docs/architecture.md): Next's server bundles hold no copy of the
 * service. Pages reach the server through plantdesk-host, so after `next build` no server chunk
 * contains the service's modules. Checked on the build output when there is one (`npx next build`
 * or `npm run build` first); the import check (rule pages-reach-the-server-through-its-interface)
 * keeps app/ from importing them in the first place.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const serverDir = path.join(root, process.env.NEXT_DIST_DIR || ".next", "server");
/** Names only the service's, the stores' and the /api/ router's modules define. */
const SERVER_MODULE_MARKERS = ["runTelemetryEngine", "createServiceRuntime", "openDashboardSql", "createMaintenanceRoutes", "callApiInProcess"];

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && /\.(js|mjs|cjs)$/.test(e.name)).map((e) => path.join(e.parentPath, e.name));
}

describe.skipIf(!fs.existsSync(serverDir))("Next's server build", () => {
  it("holds none of the server's modules (pages reach the one server through plantdesk-host)", () => {
    const found: string[] = [];
    for (const file of filesUnder(serverDir)) {
      const text = fs.readFileSync(file, "utf8");
      for (const marker of SERVER_MODULE_MARKERS) if (text.includes(marker)) found.push(`${path.relative(root, file)}: ${marker}`);
    }
    expect(found).toEqual([]);
  });
});
