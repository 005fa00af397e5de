import * as z from "zod/mini";
import { dateTimeSchema } from "../time/range.ts";

const cursor = () => z.optional(z.string().check(z.maxLength(200, "is too long")));
const limit = (def: number) =>
  z._default(
    z.pipe(
      z.string().check(z.regex(/^\d{1,4}$/, "must be a whole number")),
      z.pipe(z.transform(Number), z.number().check(z.minimum(1, "must be at least 1"), z.maximum(100, "must be at most 100"))),
    ),
    def,
  );
const reason = () => z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(500, "must be at most 500 characters"));

export const AdminIdParamSchema = z.object({ id: z.uuid("must be a uuid") });

export const UserListQuerySchema = z.object({
  /** The start of an email address. */
  q: z.optional(z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(254, "is too long"))),
  cursor: cursor(),
  limit: limit(50),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

export const AdminUserPatchSchema = z
  .strictObject({
    isAdmin: z.optional(z.boolean({ error: "must be true or false" })),
    plan: z.optional(z.enum(["free", "pro"], { error: "must be free or pro" })),
    reason: z.optional(reason()),
  })
  .check(
    z.refine((p: { isAdmin?: boolean; plan?: string }) => p.isAdmin !== undefined || p.plan !== undefined, {
      message: "must change isAdmin or plan",
      path: ["isAdmin"],
    }),
  );
export type AdminUserPatch = z.infer<typeof AdminUserPatchSchema>;

export const CreditGrantSchema = z.strictObject({
  amount: z.number({ error: "must be a whole number of credits" }).check(
    z.int("must be a whole number of credits"),
    z.refine((n: number) => n !== 0, "must not be zero"),
    z.minimum(-1_000_000_000, "must be at least -1000000000"),
    z.maximum(1_000_000_000, "must be at most 1000000000"),
  ),
  reason: z.string({ error: "is required" }).check(z.trim(), z.minLength(1, "is required"), z.maxLength(500, "must be at most 500 characters")),
});
export type CreditGrant = z.infer<typeof CreditGrantSchema>;

export const EndSessionsQuerySchema = z.object({ reason: z.optional(reason()) });

export const StatsQuerySchema = z.object({ from: z.optional(dateTimeSchema()), to: z.optional(dateTimeSchema()) });
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

export const AuditQuerySchema = z.object({
  cursor: cursor(),
  limit: limit(50),
  targetUserId: z.optional(z.uuid("must be a uuid")),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** POST /api/admin/setup: the token of the setup link a Node start printed (lib/admin/setup.ts). */
export const SetupClaimSchema = z.strictObject({
  token: z.string({ error: "is required" }).check(z.minLength(1, "is required"), z.maxLength(200, "must be at most 200 characters")),
});
