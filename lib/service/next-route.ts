/**
 * The embedded service behind a Next.js route file: the fallback when Next serves the spec's paths
 * itself (e.g. `next start` without scripts/serve.ts). Framework-free: it only speaks WHATWG
 * Request/Response, so it is not a next/* import.
 */
import { fromWebRequest, toWebResponse } from "./http/web-adapter";
import { getServiceRuntime } from "./runtime";

export async function handleWithService(request: Request): Promise<Response> {
  const runtime = await getServiceRuntime();
  return toWebResponse(await runtime.handle(await fromWebRequest(request)));
}
