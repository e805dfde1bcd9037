/**
 * The contract's schemas (and zod with them), loaded on demand: forms check with them and failures
 * are read with the error-body schema, but a page should not download zod and every schema before
 * anyone types or anything fails (docs/architecture.md, "What the browser loads"). Forms call
 * `preloadMaintenanceContract()` when they appear, so the check on submit rarely waits for the
 * network.
 */
export const loadMaintenanceContract = () => import("@/modules/maintenance/contract/maintenance");

/** The error body's schema, for reading a failure (lib/client/api.ts). */
export const loadCommonContract = () => import("@/lib/contract/common");

/** The explorer's query metadata (resolution, inspection), read when a query answers. */
export const loadExplorerContract = () => import("@/lib/contract/explorer");

export function preloadMaintenanceContract(): void {
  // A failed preload is retried by the check itself; nothing to report here.
  loadMaintenanceContract().catch(() => undefined);
}
