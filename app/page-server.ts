import "server-only";
/**
 * The pages' one way to the server (docs/architecture.md, "One server in the process"): the interface
 * scripts/serve.ts provided through `plantdesk-host`. Only its type comes from lib/, so Next bundles
 * none of the server's modules. The request's headers are read here, in the page's own Next context.
 */
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { pageServer } from "plantdesk-host";
import type { DashboardUser, PageRead, PageReadRequest, PageServer } from "@/lib/bff/page-server";

export type { DashboardUser } from "@/lib/bff/page-server";

export const server = (): PageServer => pageServer() as PageServer;

/**
 * For server components (the dashboard layout): the signed-in user, or a redirect to sign-in.
 * The proxy already sends cookie-less visitors away; this also catches expired or forged cookies
 * and disabled users.
 */
export async function requireSignedInUser(): Promise<DashboardUser> {
  const user = await server().userFromCookieHeader((await headers()).get("cookie"));
  if (!user) redirect("/signin");
  return user;
}

/**
 * The JSON answer of an `/api/` path as the signed-in browser would get it, or null for anything but
 * 200 (lib/bff/page-reads.ts says why): the page then renders without it and the browser asks.
 */
export async function readApiForPage<T>(path: string, read: PageReadRequest = {}): Promise<PageRead<T> | null> {
  const request = await headers();
  return server().readApi<T>(path, read, { cookie: request.get("cookie"), host: request.get("host"), secFetchSite: request.get("sec-fetch-site") });
}
