/**
 * Where the browser tests find Chromium: `CHROMIUM_PATH`, else Debian's package. Read by
 * playwright.config.ts and by `npm test`'s browser check, so both always mean the same binary.
 */
/** Environment variables; a plain record so tests can pass a few without the whole process env. */
export type Env = Readonly<Record<string, string | undefined>>;

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

export function chromiumPath(env: Env = process.env): string {
  return env.CHROMIUM_PATH?.trim() || DEBIAN_CHROMIUM;
}
