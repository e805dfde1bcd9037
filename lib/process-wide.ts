/**
 * The one bridge between the two copies of lib/ in the server's process. scripts/serve.ts loads
 * lib/ through tsx; Next.js compiles app/ and everything it imports into bundles of its own and
 * loads those beside it, so every module under lib/ exists twice, each with its own module-level
 * variables. Next offers no way to load local source from outside its bundles
 * (`serverExternalPackages` takes packages in node_modules, not the app's own files), so the
 * things there must be ONE of per process are kept here, on globalThis, in one map: the service
 * runtime (one database pool, one set of DuckDB files: a second opener would fail on DuckDB's
 * lock), the dashboard store, the upstream, the shared state, the sign-in throttle, the /api/ rate
 * limiter, the demo users' first hashing. Errors thrown by one copy and caught by the other are
 * recognised by a brand (`processBrand`) instead of `instanceof`, which compares the copies' classes.
 * ApiError (lib/contract/errors.ts) spells its brand in place: the contract imports only zod.
 */
const SLOTS = Symbol.for("plantdesk.processWide");

function slots(): Map<string, unknown> {
  const holder = globalThis as { [SLOTS]?: Map<string, unknown> };
  holder[SLOTS] ??= new Map();
  return holder[SLOTS];
}

/** The process's one `name`, made by `create` for whichever copy asks first. */
export function processWide<T>(name: string, create: () => T): T {
  const all = slots();
  if (!all.has(name)) all.set(name, create());
  return all.get(name) as T;
}

/** Like processWide for a value made asynchronously; a failure is not kept, so the next caller tries again. */
export function processWideAsync<T>(name: string, create: () => Promise<T>): Promise<T> {
  return processWide(name, () =>
    create().catch((error: unknown) => {
      slots().delete(name);
      throw error;
    }),
  );
}

/** Takes `name` out (closed by its owner); the next processWide makes a new one. */
export function takeProcessWide<T>(name: string): T | undefined {
  const all = slots();
  const value = all.get(name) as T | undefined;
  all.delete(name);
  return value;
}

/** The names held (tests count them). */
export function processWideNames(): string[] {
  return [...slots().keys()];
}

/** A brand in the global symbol registry: the same symbol in both copies of a module. */
export function processBrand(name: string): symbol {
  return Symbol.for(`plantdesk.${name}`);
}
