import { DEMO_USERS, ensureDemoUsers } from "@/lib/auth/demo-users";
import type { ServiceRuntime } from "./runtime";

/** What the server prints once it listens: where to go, and how to sign in. */
export function announceStartup({ url, runtime, dev }: { url: string; runtime: ServiceRuntime; dev: boolean }): void {
  console.log(`\nPlantdesk ${dev ? "(development) " : ""}is running at ${url}`);
  console.log(`  API reference: ${url}/docs/api   OpenAPI document: ${url}/openapi.json`);
  const { dashboard, dataDir } = runtime.config;
  if (!dashboard.demo) return;
  const demo = ensureDemoUsers(runtime.db, dataDir, dashboard.demoPassword);
  console.log(`  Demo sign-in (one password for all): ${DEMO_USERS.map((user) => user.email).join(", ")}`);
  // The generated password is shown once, on the start that created it; it is also in the file.
  if (demo.generatedPassword) console.log(`  Demo password: ${demo.generatedPassword}`);
  console.log(`  Accounts, roles and plants: ${demo.file}`);
}
