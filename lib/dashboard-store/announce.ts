import type { AppConfig } from "@/lib/config";
import { DEMO_USERS, ensureDemoUsersOnce } from "./demo-users";
import { getDashboardDb } from "./database";

/**
 * What the server prints once it listens: where to go, and how to sign in. The demo password is
 * never printed (logs are kept and shared); it is in a file only its owner can read.
 */
export async function announceStartup({ url, config, dev }: { url: string; config: AppConfig; dev: boolean }): Promise<void> {
  console.log(`\nPlantdesk ${dev ? "(development) " : ""}is running at ${url}`);
  console.log(`  API reference: ${url}/docs/api   OpenAPI document: ${url}/openapi.json`);
  const { dashboard, dataDir } = config;
  if (!dashboard.demo) return;
  const demo = await ensureDemoUsersOnce(await getDashboardDb(), dataDir, dashboard.demoPassword);
  console.log(`  Demo sign-in (one password for all): ${DEMO_USERS.map((user) => user.email).join(", ")}`);
  console.log(dashboard.demoPassword ? "  Password: the value of DEMO_PASSWORD" : `  Password and each account's role and plants: cat ${demo.file}`);
}
