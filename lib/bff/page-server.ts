import "server-only";
/**
 * The server as Next's pages see it: everything a server component or next-auth's route asks of the
 * server, in one interface (docs/architecture.md, "One server in the process"). scripts/serve.ts makes
 * it once and hands it to the pages through the `plantdesk-host` package; app/ imports only its type,
 * so Next's bundles hold no copy of the service, the stores or the dashboard's server modules, and
 * every module keeps one state per process.
 */
import type { AuthOptions } from "next-auth";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { authOptionsFor } from "@/lib/auth/options";
import { parseCookieHeader, userFromCookieHeader } from "@/lib/auth/session";
import { describeUser, reachablePlants } from "@/lib/api-handler/handler";
import { getConfig } from "@/lib/config";
import type { TMe } from "@/lib/contract/dashboard";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { peekInvitation } from "@/lib/dashboard-store/invitations";
import { findUserById, type DashboardUser } from "@/lib/dashboard-store/users";
import { getServiceOpenApiDocument } from "@/lib/service/openapi";
import { getUpstream } from "@/lib/upstream";
import type { PlantInfo } from "@/lib/upstream/types";
import type { TDashboard } from "@/modules/boards/contract/boards";
import { dashboardForPage } from "@/modules/boards/api/routes";
import { readApiForPage, type PageRead, type PageReadRequest, type PageRequestHeaders } from "./page-reads";

export type { PageRead, PageReadRequest, PageRequestHeaders } from "./page-reads";
export type { DashboardUser } from "@/lib/dashboard-store/users";

export interface PageServer {
  /** The enabled user behind a request's Cookie header, or null. */
  userFromCookieHeader(header: string | null): Promise<DashboardUser | null>;
  /** The account as `/api/me` answers it. */
  describeUser(user: DashboardUser): Promise<TMe>;
  /** The plants the user can open. */
  reachablePlants(user: DashboardUser): Promise<PlantInfo[]>;
  /** An `/api/` GET or POST answered in process for the page's own request (lib/bff/page-reads.ts). */
  readApi<T>(path: string, read: PageReadRequest, request: PageRequestHeaders): Promise<PageRead<T> | null>;
  /** A board the user may read, or null (modules/boards/api/routes.ts, dashboardForPage). */
  boardForPage(user: DashboardUser, plantId: string, id: string): Promise<TDashboard | null>;
  /** The user an invitation link is for, or null when it is not valid any more. */
  invitedUser(token: string): Promise<DashboardUser | null>;
  /** Which single sign-on buttons the sign-in and invitation pages show (no secret leaves the server). */
  signInChoices(): { entraId: boolean; oidcName: string | null };
  /** The service's OpenAPI document (the API docs page). */
  serviceOpenApiDocument(): Record<string, unknown>;
  /** next-auth's options for a sign-in request with these headers (its cookies; its browser and address for a session it makes). */
  authOptions(headers: Headers): Promise<AuthOptions>;
}

export function createPageServer(): PageServer {
  return {
    userFromCookieHeader,
    describeUser: async (user) => describeUser(user, await getUpstream()),
    reachablePlants: async (user) => reachablePlants(user, await getUpstream()),
    readApi: (path, read, request) => readApiForPage(path, read, request),
    boardForPage: dashboardForPage,
    async invitedUser(token) {
      const db = await getDashboardDb();
      const userId = await peekInvitation(db, token);
      return userId === null ? null : findUserById(db, userId);
    },
    signInChoices: () => ({ entraId: getConfig().dashboard.azureAd !== null, oidcName: getConfig().dashboard.oidc?.name ?? null }),
    serviceOpenApiDocument: getServiceOpenApiDocument,
    authOptions: (headers) =>
      authOptionsFor(parseCookieHeader(headers.get("cookie")), { userAgent: headers.get("user-agent"), address: headers.get(CLIENT_ADDRESS_HEADER) }),
  };
}
