/**
 * zod as the contract uses it. In the browser it works without `new Function` (jitless): the
 * pages' CSP allows no eval (proxy.ts), and zod probes for it as soon as an object schema is built,
 * so the setting must come before any contract module builds one — hence this module, which every
 * contract module imports first. The server keeps zod's compiled parsers.
 */
import { z } from "zod";

if (typeof window !== "undefined") z.config({ jitless: true });

export { z };
