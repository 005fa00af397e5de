// The response bodies of the admin routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { id, iso } from "../fields.ts";

const AdminUserFields = {
  id: id(),
  email: z.string(),
  isAdmin: z.boolean(),
  plan: z.enum(["free", "pro"]),
  emailVerified: z.boolean(),
  createdAt: iso(),
  lastSeenAt: z.nullable(iso()),
  accounts: z.number(),
  fills: z.number(),
  trades: z.number(),
};

export const AdminUserListSchema = z.object({ users: z.array(z.object(AdminUserFields)), nextCursor: z.nullable(z.string()) });

export const AdminUserSchema = z.object({
  user: z.object({
    ...AdminUserFields,
    sessions: z.number(),
    wallet: z.object({ balance: z.number(), reserved: z.number(), available: z.number() }),
  }),
});

export const AdminCreditSchema = z.object({
  movement: z.object({ id: id(), kind: z.literal("admin_grant"), amount: z.number(), balanceAfter: z.number(), reference: z.string(), createdAt: iso() }),
});

export const AdminStatsSchema = z.object({
  users: z.object({ total: z.number(), admins: z.number(), pro: z.number(), active7Days: z.number(), active30Days: z.number() }),
  accounts: z.number(),
  fills: z.number(),
  imports: z.number(),
  advisor: z.object({ from: iso(), to: iso(), turns: z.number(), creditsCharged: z.number() }),
  digests: z.object({ emailConfigured: z.boolean(), sent: z.number(), failed: z.number(), retrying: z.number(), lastError: z.nullable(z.string()) }).check(
    z.describe("Weekly digests claimed in the period: sent, failed for good (a refused address, email not configured, tried 3 times), waiting to be tried again; the newest failure's reason"),
  ),
});

export const AuditListSchema = z.object({
  entries: z.array(
    z.object({
      id: id(),
      actorId: z.nullable(id()),
      actorEmail: z.string(),
      action: z.enum(["promote", "demote", "set_plan", "credit_grant", "end_sessions", "disable_2fa"]),
      targetUserId: z.nullable(id()),
      targetEmail: z.string(),
      reason: z.nullable(z.string()),
      details: z.record(z.string(), z.unknown()),
      at: iso(),
    }),
  ),
  nextCursor: z.nullable(z.string()),
});
