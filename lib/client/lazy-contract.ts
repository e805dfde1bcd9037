/**
 * The maintenance contract's schemas, loaded on demand: forms check with them, but a page should
 * not download zod and every schema before anyone types (docs/architecture.md, "What the browser
 * loads"). Forms call `preloadMaintenanceContract()` when they appear, so the check on submit
 * rarely waits for the network.
 */
export const loadMaintenanceContract = () => import("@/lib/contract/maintenance");

export function preloadMaintenanceContract(): void {
  // A failed preload is retried by the check itself; nothing to report here.
  loadMaintenanceContract().catch(() => undefined);
}
