/**
 * Module resolution hook for the production server (scripts/serve.ts): "server-only" is a marker
 * that throws outside React's server condition; in this plain Node process every module is server
 * code, so it resolves under that condition to the package's empty module — as inside Next's
 * server bundles. Nothing else is affected.
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier !== "server-only") return nextResolve(specifier, context);
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, "react-server"] });
}
