/**
 * Security headers of every answer (docs/architecture.md, "Security headers"). JSON answers of
 * both surfaces get them from the Node adapter; scripts/serve.ts sets the common ones on every
 * response before Next writes a page, and proxy.ts adds the pages' nonce-based CSP.
 */

/** Every answer: no MIME sniffing, no framing, no referrer beyond this site, no powerful features. */
const COMMON = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
} as const;

export const SECURITY_HEADERS = {
  common: COMMON,
  /** JSON (and CSV) answers: nothing in them may load or run anything, nor be framed. */
  api: { ...COMMON, "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" },
} as const;

/**
 * The pages' Content-Security-Policy with this request's nonce. Scripts: only Next's own, which
 * carry the nonce, and what they load ('strict-dynamic'). Styles: 'unsafe-inline', because React
 * style attributes, recharts and CodeMirror's injected style sheets cannot carry a nonce; styles
 * cannot run code. Development adds 'unsafe-eval' (React's dev build and hot reload need it).
 */
export function pageContentSecurityPolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
