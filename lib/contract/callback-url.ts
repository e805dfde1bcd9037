/**
 * Where the browser may be sent after signing in: a path on this site, nothing else. The check is
 * made on what a browser would make of the text, not on its first characters: a URL parser drops
 * tabs and line breaks and reads a backslash as a slash, so `/\t/evil.example`, `/%0A/evil.example`
 * (decoded from the query) or `/\evil.example` all end up as `//evil.example` — another host. Plain
 * data, no Node imports: the sign-in page and next-auth's redirect callback both use it.
 */
const PROBE_ORIGIN = "http://plantdesk.invalid";
const MAX_LENGTH = 2048;

/** The path (with query and fragment) to go to, or `/` when the value could lead anywhere else. */
export function safeCallbackPath(value: string | null | undefined): string {
  if (!value || value.length > MAX_LENGTH) return "/";
  // Control characters, spaces at either end and backslashes never occur in a path we link to.
  if (/[\u0000-\u001f\u007f\\]/.test(value) || value !== value.trim()) return "/";
  if (!value.startsWith("/") || value.startsWith("//")) return "/";
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== PROBE_ORIGIN) return "/";
  // Re-serialised by the parser, so what the browser gets is what was checked.
  return `${url.pathname}${url.search}${url.hash}`;
}
