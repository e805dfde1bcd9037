import { ApiError } from "../../contract/errors";
import { toErrorResponse } from "./respond";
import { MAX_BODY_BYTES, type ServiceRequest, type ServiceResponse } from "./types";

type RouteParams = Record<string, string>;
export type RouteHandler = (req: ServiceRequest, params: RouteParams) => ServiceResponse | Promise<ServiceResponse>;

export interface Route {
  method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  /** Path pattern with `{name}` segments, e.g. `/maintenance/v1/plants/{plantId}/tasks`. */
  pattern: string;
  handler: RouteHandler;
  /** Largest body this route reads, when it takes more than MAX_BODY_BYTES (an attachment's upload). */
  maxBodyBytes?: number;
}

/** A router: answers a request, and says how large a body the route a request goes to reads (the Node adapter asks before reading). */
export interface RouterHandler {
  (req: ServiceRequest): Promise<ServiceResponse>;
  bodyLimit(method: string, path: string): number;
}

interface CompiledRoute extends Route {
  regex: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split("/")
    .map((segment) => {
      const m = /^\{(\w+)\}$/.exec(segment);
      if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(m[1]!);
      return "([^/]+)";
    })
    .join("/");
  return { ...route, regex: new RegExp(`^${source}/?$`), names };
}

/**
 * A small table router: 404 NOT_FOUND for an unknown path, 405 METHOD_NOT_ALLOWED (with `Allow`)
 * for a known path with another method, and the error body for anything a handler throws.
 */
export function createRouter(routes: Route[]): RouterHandler {
  const compiled = routes.map(compile);
  const larger = compiled.filter((route) => route.maxBodyBytes !== undefined);
  const handle = async (req: ServiceRequest): Promise<ServiceResponse> => {
    const allowed: string[] = [];
    for (const route of compiled) {
      const m = route.regex.exec(req.path);
      if (!m) continue;
      if (route.method !== req.method && !(req.method === "HEAD" && route.method === "GET")) {
        allowed.push(route.method);
        continue;
      }
      req.route = route.pattern;
      const params: RouteParams = {};
      let malformed = false;
      route.names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(m[i + 1]!);
        } catch {
          malformed = true;
        }
      });
      try {
        if (malformed) throw new ApiError("INVALID_INPUT", "The path contains malformed percent-encoding.");
        return await route.handler(req, params);
      } catch (thrown) {
        return toErrorResponse(thrown, `${req.method} ${route.pattern}`);
      }
    }
    if (allowed.length > 0) {
      return toErrorResponse(
        new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed here; use ${allowed.join(", ")}.`, [], {
          allow: allowed.join(", "),
        }),
        "router",
      );
    }
    return toErrorResponse(new ApiError("NOT_FOUND", `No resource at ${req.path}.`), "router");
  };
  const bodyLimit = (method: string, path: string): number =>
    larger.find((route) => route.method === method && route.regex.test(path))?.maxBodyBytes ?? MAX_BODY_BYTES;
  return Object.assign(handle, { bodyLimit });
}
