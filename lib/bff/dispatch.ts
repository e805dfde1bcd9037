import "server-only";
/**
 * The `/api/` routes as one table, for the production server's fast path: `scripts/serve.ts` hands
 * `/api/` requests (sign-in aside) straight to these handlers, as it does the service's paths,
 * without Next's request pipeline. The handlers are the very ones the route files under `app/api/`
 * export (a test keeps both lists equal), so `next dev`/`next start` behave the same.
 */
import * as routes from "./routes";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export const API_ROUTES: readonly { method: string; pattern: string; handler: Handler }[] = [
  { method: "GET", pattern: "/api/me", handler: routes.me },
  { method: "GET", pattern: "/api/plants/[plantId]/jobs-done", handler: routes.jobsDone },
  { method: "GET", pattern: "/api/plants/[plantId]/jobs-planned", handler: routes.jobsPlanned },
  { method: "GET", pattern: "/api/plants/[plantId]/assets", handler: routes.assets },
  { method: "GET", pattern: "/api/plants/[plantId]/tasks", handler: routes.tasks },
  { method: "POST", pattern: "/api/plants/[plantId]/tasks", handler: routes.createTask },
  { method: "GET", pattern: "/api/plants/[plantId]/tasks/[taskId]", handler: routes.task },
  { method: "POST", pattern: "/api/plants/[plantId]/tasks/[taskId]/transitions", handler: routes.transitionTask },
  { method: "GET", pattern: "/api/plants/[plantId]/lookup-values", handler: routes.lookupValues },
  { method: "GET", pattern: "/api/plants/[plantId]/parts", handler: routes.parts },
  { method: "PUT", pattern: "/api/plants/[plantId]/parts/[partId]/stock-level", handler: routes.submitStockLevel },
  { method: "GET", pattern: "/api/plants/[plantId]/parts/[partId]/stock-levels", handler: routes.stockLevels },
  { method: "POST", pattern: "/api/telemetry/query", handler: routes.telemetryQuery },
  { method: "GET", pattern: "/api/telemetry/history", handler: routes.queryHistory },
  { method: "POST", pattern: "/api/telemetry/history", handler: routes.saveQuery },
  { method: "PATCH", pattern: "/api/telemetry/history", handler: routes.updateQuery },
  { method: "GET", pattern: "/api/audit", handler: routes.auditLog },
];

const compiled = API_ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.pattern.replace(/\[(\w+)\]/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { ...route, regex: new RegExp(`^${source}/?$`), names };
});

/**
 * The handler for this method and path, bound to its path parameters; null when no route has them
 * (then Next answers: 404 or 405).
 */
export function findApiRoute(method: string, pathname: string): ((request: Request) => Promise<Response>) | null {
  const wanted = method === "HEAD" ? "GET" : method;
  for (const route of compiled) {
    if (route.method !== wanted) continue;
    const match = route.regex.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      route.names.forEach((name, index) => (params[name] = decodeURIComponent(match[index + 1]!)));
    } catch {
      return null; // malformed percent-encoding: let Next answer
    }
    return (request) => route.handler(request, { params: Promise.resolve(params) });
  }
  return null;
}
