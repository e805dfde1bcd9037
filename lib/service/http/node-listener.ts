import type { IncomingMessage, ServerResponse } from "node:http";
import { fromNodeRequest, sendNodeResponse } from "./node-adapter";
import type { ServiceRequest, ServiceResponse } from "./types";

/**
 * The service behind a node:http server: read the request, let the service answer, write the
 * answer. Used by scripts/serve.ts for the spec's paths, and by the tests and the benchmark, so
 * all three measure and exercise the same path.
 */
export function serviceListener(
  handle: (req: ServiceRequest) => Promise<ServiceResponse>,
  fallbackOrigin: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      try {
        const request = await fromNodeRequest(req, fallbackOrigin, res);
        sendNodeResponse(res, await handle(request), request.method === "HEAD");
      } catch (error) {
        // Only reached when reading the request or writing the answer fails; handlers' errors are
        // already error bodies. No request details: they may hold tokens.
        console.error(`[server] ${req.method} ${(req.url ?? "").split("?")[0]}: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ status: "ERROR", code: "INTERNAL_ERROR", message: "An unexpected error occurred.", data: [] }));
      }
    })();
  };
}
