/**
 * The address a request came from, as the sign-in throttle sees it. The server (scripts/serve.ts)
 * writes it into this header for every request that reaches Next, overwriting whatever a client
 * sent: from the socket, or — only with TRUST_PROXY=true — from the last X-Forwarded-For entry,
 * which the trusted proxy in front appended. Plain data, no Node imports.
 */
export const CLIENT_ADDRESS_HEADER = "x-plantdesk-client-address";

/** The client's address of a request, given its socket address and headers. */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const last = forwardedFor.split(",").at(-1)?.trim();
    if (last) return last.slice(0, 64);
  }
  return (socketAddress ?? "unknown").slice(0, 64);
}
