import type { ServiceRuntime } from "./runtime";

/** What the server prints once it listens: where to go, and how to sign in. */
export function announceStartup({ url, dev }: { url: string; runtime: ServiceRuntime; dev: boolean }): void {
  console.log(`\nPlantdesk ${dev ? "(development) " : ""}is running at ${url}`);
  console.log(`  API reference: ${url}/docs/api   OpenAPI document: ${url}/openapi.json`);
}
