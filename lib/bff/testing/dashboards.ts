/**
 * The dashboard as the `/api/` suites run it, over real HTTP: on the embedded service (demo users
 * seeded) or against a remote service on another port (configured through the environment only, as
 * an operator would). Import it after `setTestEnvironment` has run (environment.ts).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import type { TTaskCreation } from "@/modules/maintenance/contract/maintenance";
import { getSessionSecret, sessionPolicy } from "@/lib/auth/session";
import { createSession } from "@/lib/dashboard-store/sessions";
import { closeDashboardDb, getDashboardDb } from "@/lib/dashboard-store/database";
import { ensureDemoUsers } from "@/lib/dashboard-store/demo-users";
import { findUser, upsertUser } from "@/lib/dashboard-store/users";
import type { MaintenanceStore } from "@/modules/maintenance/store";
import { getServiceRuntime, type ServiceRuntime } from "@/lib/service/runtime";
import { startServiceServer, type RunningService } from "@/lib/upstream/testing/servers";
import { startApiServer, type ApiServer } from "./api-server";
import type { TestEnvironment } from "./environment";

/**
 * A session cookie for `email`, as a sign-in makes it: a server-side session (when such a user
 * exists; else an id no session has) and next-auth's own encoder for the cookie.
 */
export async function sessionCookie(email: string, secret: string, maxAge = 3600): Promise<string> {
  const db = await getDashboardDb();
  const user = await findUser(db, email);
  const sid = user ? await createSession(db, user.id, "test", sessionPolicy()) : randomBytes(32).toString("base64url");
  return `next-auth.session-token=${await encode({ token: { sid, email, name: email }, secret, maxAge })}`;
}

/** A task the service accepts for RTM1: the plant's first asset and first allowed lookup values. */
export async function validTask(store: MaintenanceStore, taskTitle: string): Promise<TTaskCreation> {
  return {
    taskTitle,
    activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
    priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
    asset: { tagNumber: (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!.tagNumber },
  };
}

export interface EmbeddedDashboard {
  runtime: ServiceRuntime;
  /** `/api/` of the dashboard. */
  api: ApiServer;
  /** The embedded service at its own paths. */
  service: ApiServer;
  /** The key of the session cookies. */
  secret: string;
  /** A session cookie for a user (the demo users: `planner@plantdesk.demo`, …). */
  cookieFor(email: string, maxAge?: number): Promise<string>;
  close(): Promise<void>;
}

/** The embedded service and the dashboard's `/api/` on it, with the demo users of `demoPassword`. */
export async function startEmbeddedDashboard(env: TestEnvironment, demoPassword: string): Promise<EmbeddedDashboard> {
  const runtime = await getServiceRuntime();
  await ensureDemoUsers(await getDashboardDb(), env.dataDir, demoPassword);
  const secret = await getSessionSecret();
  const api = await startApiServer();
  const service = await startApiServer(runtime.handle);
  return {
    runtime,
    api,
    service,
    secret,
    cookieFor: (email, maxAge) => sessionCookie(email, secret, maxAge),
    async close() {
      await api.close();
      await service.close();
      await runtime.close();
      await closeDashboardDb();
      env.remove();
    },
  };
}

export interface RemoteDashboard {
  remote: RunningService;
  api: ApiServer;
  /** The session cookie of the supervisor the suite asked for. */
  cookie: string;
  close(): Promise<void>;
}

/**
 * A second service instance on its own port and database, and the dashboard's `/api/` configured
 * against it: plant tokens its operator issued (`tokens` gives the PLANT_TOKENS file's entries),
 * a telemetry client of CUST-ACME, and one supervisor. `intercept` goes to startServiceServer.
 */
export async function startRemoteDashboard(options: {
  env: TestEnvironment;
  tokens: (issue: (plantId: string) => Promise<string>) => Promise<Record<string, unknown>>;
  supervisor: { email: string; plants: string[] };
  intercept?: Parameters<typeof startServiceServer>[0];
}): Promise<RemoteDashboard> {
  const remote = await startServiceServer(options.intercept);
  const tokenFile = path.join(os.tmpdir(), `pd-plant-tokens-${process.pid}-${Date.now()}.json`);
  const entries = await options.tokens(async (plantId) => (await remote.runtime.plantTokens.issue(plantId)).token);
  fs.writeFileSync(tokenFile, JSON.stringify(entries));
  const telemetryClient = await remote.runtime.telemetry.clients.create("CUST-ACME");
  Object.assign(process.env, {
    SERVICE_BASE_URL: remote.url,
    SERVICE_AUTH_URL: remote.url,
    PLANT_TOKENS: tokenFile,
    TELEMETRY_CLIENT_ID: telemetryClient.client_id,
    TELEMETRY_CLIENT_SECRET: telemetryClient.client_secret,
    TELEMETRY_SCOPE: telemetryClient.scope,
  });
  const api = await startApiServer();
  const { email, plants } = options.supervisor;
  await upsertUser(await getDashboardDb(), { email, role: "supervisor", plants, password: "long-enough-1" });
  return {
    remote,
    api,
    cookie: await sessionCookie(email, process.env.NEXTAUTH_SECRET!, 600),
    async close() {
      await remote.close();
      await api.close();
      await closeDashboardDb();
      options.env.remove();
      fs.rmSync(tokenFile, { force: true });
    },
  };
}
