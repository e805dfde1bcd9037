/**
 * First-load JavaScript per page of a production build, read from the build's own manifests: the
 * root main files (framework, runtime) plus every chunk the page's route segments list in their
 * client reference manifest (`entryJSFiles`: layouts, error boundaries, the page). Chunks loaded
 * later with next/dynamic are not in those lists, which is the point of loading them lazily.
 * Sizes are gzip level 9 of the files on disk, as a CDN would serve them.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

interface PageWeight {
  route: string;
  files: number;
  rawBytes: number;
  gzipBytes: number;
}

function findManifests(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...findManifests(full));
    else if (entry === "page_client-reference-manifest.js") found.push(full);
  }
  return found;
}

export function firstLoadJs(distDir: string): PageWeight[] {
  const build = JSON.parse(readFileSync(path.join(distDir, "build-manifest.json"), "utf8")) as { rootMainFiles: string[] };
  const gzipCache = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let size = gzipCache.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(distDir, file));
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      gzipCache.set(file, size);
    }
    return size;
  };
  const appDir = path.join(distDir, "server", "app");
  if (!existsSync(appDir)) throw new Error(`No app build in ${distDir}: run next build first.`);
  const pages: PageWeight[] = [];
  for (const manifestFile of findManifests(appDir)) {
    const text = readFileSync(manifestFile, "utf8");
    const route = /__RSC_MANIFEST\["([^"]+)"\]/.exec(text)?.[1];
    const json = text.slice(text.indexOf("= {") + 2).replace(/;\s*$/, "");
    if (!route) continue;
    const manifest = JSON.parse(json) as { entryJSFiles?: Record<string, string[]> };
    const files = new Set(build.rootMainFiles);
    for (const list of Object.values(manifest.entryJSFiles ?? {})) for (const file of list) files.add(file);
    let rawBytes = 0;
    let gzipBytes = 0;
    for (const file of files) {
      const size = sizeOf(file);
      rawBytes += size.raw;
      gzipBytes += size.gzip;
    }
    pages.push({ route: route.replace(/\/page$/, "") || "/", files: files.size, rawBytes, gzipBytes });
  }
  return pages.sort((a, b) => a.route.localeCompare(b.route));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const distDir = path.resolve(process.argv[2] ?? ".next");
  for (const page of firstLoadJs(distDir)) {
    console.log(`${page.route.padEnd(48)} ${(page.gzipBytes / 1024).toFixed(1).padStart(7)} kB gzip  (${(page.rawBytes / 1024).toFixed(0)} kB raw, ${page.files} files)`);
  }
}
