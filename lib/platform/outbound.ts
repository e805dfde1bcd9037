/**
 * Outbound HTTP to a destination a user chose (a monitor's webhook): only to public unicast
 * addresses unless the operator allows private ones (`WEBHOOK_ALLOW_PRIVATE=1`). The URL is read
 * as WHATWG URLs read it, so every spelling of an address (`127.1`, `2130706433`, `0x7f.1`,
 * `[::ffff:127.0.0.1]`, …) is one address before it is judged; a name is resolved, EVERY address
 * it has is judged, and the connection goes to the address that was judged (the socket's lookup
 * answers with it), so a name that resolves differently a moment later (DNS rebinding) cannot
 * move the request. Bounded: a time limit, no redirects followed, the answer read up to a cap.
 */
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** The destination may not be called; the reason is never shown beyond these words. */
export class RefusedDestination extends Error {
  constructor() {
    super("refused destination");
    this.name = "RefusedDestination";
  }
}

/** Every address a name has (tests give their own). */
type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface DestinationPolicy {
  /** Private, loopback, link-local, … addresses allowed too (an operator's choice for an internal chat server). */
  allowPrivate: boolean;
  resolve?: Resolver;
}

/**
 * Public unicast only: not private, loopback, link-local, multicast, broadcast, unspecified,
 * carrier-grade NAT, reserved, nor an IPv6 form that carries an IPv4 address (mapped, 6to4,
 * NAT64, Teredo), which ipaddr.js classifies apart from "unicast".
 */
function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

interface CheckedDestination {
  url: URL;
  /** The address the connection goes to: judged, and never looked up again. */
  address: string;
  family: 4 | 6;
}

/** Reads and judges a destination; throws RefusedDestination (bad URL, no address, or one not allowed). */
export async function checkDestination(target: string, policy: DestinationPolicy): Promise<CheckedDestination> {
  if (!URL.canParse(target)) throw new RefusedDestination();
  const url = new URL(target);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new RefusedDestination();
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch {
      throw new RefusedDestination();
    }
  }
  if (addresses.length === 0) throw new RefusedDestination();
  if (!policy.allowPrivate && !addresses.every(isPublicAddress)) throw new RefusedDestination();
  const address = addresses[0]!;
  if (!ipaddr.isValid(address)) throw new RefusedDestination();
  return { url, address, family: ipaddr.parse(address).kind() === "ipv6" ? 6 : 4 };
}

interface PostOptions {
  timeoutMs: number;
  /** The answer is read (and thrown away) up to this many bytes. */
  maxAnswerBytes: number;
}

/** POSTs a JSON body to a checked destination; resolves with the answer's status (a redirect is not followed). */
export function postJsonTo(destination: CheckedDestination, body: unknown, options: PostOptions): Promise<number> {
  const { url, address, family } = destination;
  // The socket connects to the judged address whatever the name resolves to now (Node asks with `all` when it races families).
  const pinned = ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const payload = JSON.stringify(body);
  const request = (url.protocol === "https:" ? https : http).request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > options.maxAnswerBytes) res.destroy();
        });
        res.once("end", () => resolve(res.statusCode ?? 0));
        res.once("close", () => resolve(res.statusCode ?? 0));
        res.once("error", () => resolve(res.statusCode ?? 0));
      },
    );
    req.once("error", reject);
    req.end(payload);
  });
}
