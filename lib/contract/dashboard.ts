/**
 * Payloads of the dashboard's own `/api/` routes (beyond the service's, which `/api/` mirrors):
 * the signed-in user, the telemetry query history, the audit log and the users (admins). No server-only import.
 */
import { z } from "./zod";
import { PERMISSIONS, ROLES } from "./roles";
import { ID_PATTERN } from "./vocabulary";

const ZMePlant = z.object({
  id: z.string(),
  name: z.string(),
  /** Unknown (null) for some plants of a remote service. */
  customerId: z.string().nullable(),
});

/** GET /api/me: who, which role, which plants, which permissions, and which service. */
export const ZMe = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  plants: z.array(ZMePlant),
  permissions: z.array(z.enum(PERMISSIONS)),
  serviceMode: z.enum(["embedded", "remote"]),
});

/** Body of POST /api/telemetry/history (also what a query run records). */
export const ZHistoryRecord = z.object({
  query: z.string().trim().min(1, "must not be empty").max(20_000, "must be at most 20000 characters"),
  plantIds: z.array(z.string().max(64)).max(100).nullish(),
  startTime: z.string().max(40).nullish(),
  endTime: z.string().max(40).nullish(),
  title: z.string().trim().max(200).nullish(),
  starred: z.boolean().optional(),
});

/** Body of PATCH /api/telemetry/history. */
export const ZHistoryUpdate = z.object({
  id: z.number().int().positive(),
  starred: z.boolean().optional(),
  title: z.string().trim().max(200).nullable().optional(),
});

export const ZHistoryEntry = z.object({
  id: z.number().int(),
  query: z.string(),
  plantIds: z.array(z.string()).nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  title: z.string().nullable(),
  starred: z.boolean(),
  runCount: z.number().int(),
  createdAt: z.string(),
  lastRunAt: z.string(),
});

/** One row of the audit log (GET /api/audit): who did what, where, on what, and how it ended. */
export const ZAuditRecord = z.object({
  id: z.number().int(),
  at: z.string(),
  userEmail: z.string(),
  plantId: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  /** `SUCCESS` or the error code the action ended with. */
  outcome: z.string(),
  httpStatus: z.number().int(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});

/** GET /api/plants/{plantId}/people: the active users who can open the plant (whom a task can be assigned to). */
export const ZPlantPerson = z.object({ username: z.string(), name: z.string(), role: z.enum(ROLES) });
export type TPlantPerson = z.infer<typeof ZPlantPerson>;

/** A user's plants: every plant (`*`), or a list of plant ids (empty: waiting for access). */
const ZPlantScope = z.union([z.literal("*"), z.array(z.string().regex(ID_PATTERN, "must be a plant id")).max(500)]);

/** One user as the admin's Users page lists them (GET /api/users): never a password or hash. */
const ZUserRecord = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  plants: ZPlantScope,
  disabled: z.boolean(),
  hasPassword: z.boolean(),
  /** Identities of identity providers bound to the user (single sign-on). */
  identities: z.number().int(),
  activeSessions: z.number().int(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});

/** Body of POST /api/users: a new user, who gets an invitation link (shown once). */
export const ZUserCreate = z.strictObject({
  email: z.string().trim().min(1, "is required").max(254, "must be at most 254 characters").email("must be an e-mail address"),
  name: z.string().trim().max(120, "must be at most 120 characters").optional(),
  role: z.enum(ROLES),
  plants: ZPlantScope,
});

/** Body of PATCH /api/users/{userId}: what changes. */
export const ZUserUpdate = z
  .strictObject({
    name: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters").optional(),
    role: z.enum(ROLES).optional(),
    plants: ZPlantScope.optional(),
  })
  .refine((change) => change.name !== undefined || change.role !== undefined || change.plants !== undefined, "names nothing to change");

/** An invitation link, shown once (POST /api/users and POST /api/users/{userId}/invitation). */
const ZInvitation = z.object({ url: z.string(), expiresAt: z.string() });

export const ZUserCreated = z.object({ user: ZUserRecord, invitation: ZInvitation });


export type TMePlant = z.infer<typeof ZMePlant>;
export type TMe = z.infer<typeof ZMe>;
export type THistoryRecord = z.output<typeof ZHistoryRecord>;
export type THistoryUpdate = z.output<typeof ZHistoryUpdate>;
export type THistoryEntry = z.infer<typeof ZHistoryEntry>;
export type TAuditRecord = z.infer<typeof ZAuditRecord>;
export type TUserRecord = z.infer<typeof ZUserRecord>;
export type TInvitation = z.infer<typeof ZInvitation>;
export type TUserCreated = z.infer<typeof ZUserCreated>;
