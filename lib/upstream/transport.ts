import "server-only";
import http from "node:http";
import https from "node:https";
/**
 * How remote mode's requests reach the service: over HTTP. Kept apart from the client so the
 * retry and validation logic can be tested against scripted servers.
 */

export interface UpstreamRequest {
  method: string;
  /** Path on the service, e.g. `/maintenance/v1/plants/RTM1/tasks`. */
  path: string;
  query?: URLSearchParams;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface UpstreamResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export type Transport = (request: UpstreamRequest) => Promise<UpstreamResponse>;

/** The service's answer was longer than the transport reads: it was cut off and nothing of it is used. */
export class AnswerTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`answer larger than ${limitBytes} bytes`);
  }
}

/** Most concurrent connections to the service per dashboard process; more requests queue. */
const MAX_SOCKETS = 64;

/**
 * node:http(s) with a keep-alive pool rather than fetch: for a 68 kB page it saves about a
 * millisecond per call (fetch reads the body through web streams). Redirects are not followed.
 * An answer is read up to `maxAnswerBytes` (a declared Content-Length over it is refused before
 * reading): past it the connection is dropped and AnswerTooLarge raised, so a misbehaving service
 * can never make the dashboard buffer more.
 */
export function httpTransport(baseUrl: string, maxAnswerBytes: number): Transport {
  const base = new URL(baseUrl);
  const client = base.protocol === "https:" ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const prefix = base.pathname.replace(/\/$/, "");
  return (request) =>
    new Promise<UpstreamResponse>((resolve, reject) => {
      const query = request.query?.toString();
      const outgoing = client.request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          path: `${prefix}${request.path}${query ? `?${query}` : ""}`,
          method: request.method,
          headers: request.body === undefined ? request.headers : { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
          agent,
          signal: request.signal,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const tooLarge = () => {
            response.destroy();
            reject(new AnswerTooLarge(maxAnswerBytes));
          };
          if (Number(response.headers["content-length"] ?? 0) > maxAnswerBytes) return tooLarge();
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxAnswerBytes) tooLarge();
            else chunks.push(chunk);
          });
          response.once("error", reject);
          response.once("end", () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
            }
            resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString("utf8") });
          });
        },
      );
      outgoing.once("error", reject);
      outgoing.end(request.body);
    });
}
