/**
 * What the server prints once it listens: where to go, and how to sign in. The demo password is
 * never printed (logs are kept and shared); it is in a file only its owner can read. The demo's
 * accounts come from the server (scripts/serve.ts made them before listening).
 */
export function announceStartup({ url, dev, demo }: { url: string; dev: boolean; demo: { emails: readonly string[]; file: string; passwordFromEnv: boolean } | null }): void {
  console.log(`\nPlantdesk ${dev ? "(development) " : ""}is running at ${url}`);
  console.log(`  API reference: ${url}/docs/api   OpenAPI document: ${url}/openapi.json`);
  if (!demo) return;
  console.log(`  Demo sign-in (one password for all): ${demo.emails.join(", ")}`);
  console.log(demo.passwordFromEnv ? "  Password: the value of DEMO_PASSWORD" : `  Password and each account's role and plants: cat ${demo.file}`);
}
