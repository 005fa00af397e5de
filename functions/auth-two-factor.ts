// Two-factor sign-in: its state, TOTP set-up and enabling, backup codes, turning it off (docs/auth.md). Mounted in
// functions/auth.ts under /api/auth.
import { DisableTwoFactorSchema, TwoFactorCodeSchema } from "../lib/auth/schema.ts";
import { disableTwoFactor, enableTotp, regenerateBackupCodes, startTotpSetup, twoFactorStatus } from "../lib/auth/two-factor.ts";
import { currentUser, passwordCheckLimits, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate } from "../lib/http/index.ts";
import { BackupCodesSchema, TotpSetupSchema, TwoFactorStatusSchema } from "../lib/auth/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";

export const twoFactorRoutes = createRouter()
  .get("/2fa", describeRoute({ tag: "auth", summary: "Whether two-factor sign-in is on, and how many backup codes are left", responses: { 200: { description: "The state.", schema: TwoFactorStatusSchema } } }), requireUser, async (c) =>
    c.json(await twoFactorStatus(c.var.deps, currentUser(c).id)),
  )
  .post(
    "/2fa/totp/setup",
    describeRoute({
      tag: "auth",
      summary: "Start two-factor sign-in: a new authenticator secret (as text and as an otpauth:// URI for a QR code)",
      description: "Nothing changes at sign-in until POST /api/auth/2fa/totp/enable confirms a code. Starting again replaces an unconfirmed secret.",
      responses: { 200: { description: "The secret.", schema: TotpSetupSchema } },
      errors: ["CONFLICT"],
    }),
    requireUser,
    async (c) => c.json(await startTotpSetup(c.var.deps, currentUser(c))),
  )
  .post(
    "/2fa/totp/enable",
    describeRoute({
      tag: "auth",
      summary: "Turn two-factor sign-in on with the authenticator's first code; answers the 10 backup codes, shown this once",
      responses: { 200: { description: "On; the backup codes.", schema: BackupCodesSchema } },
      errors: ["VALIDATION_ERROR", "CONFLICT"],
    }),
    requireUser,
    ...passwordCheckLimits,
    validate("json", TwoFactorCodeSchema),
    async (c) => c.json(await enableTotp(c.var.deps, currentUser(c).id, c.req.valid("json").code)),
  )
  .post(
    "/2fa/backup-codes",
    describeRoute({
      tag: "auth",
      summary: "Ten new backup codes for a code (the old ones stop working); shown this once",
      responses: { 200: { description: "The new backup codes.", schema: BackupCodesSchema } },
      errors: ["VALIDATION_ERROR", "CONFLICT"],
    }),
    requireUser,
    ...passwordCheckLimits,
    validate("json", TwoFactorCodeSchema),
    async (c) => c.json(await regenerateBackupCodes(c.var.deps, currentUser(c).id, c.req.valid("json").code)),
  )
  .delete(
    "/2fa",
    describeRoute({ tag: "auth", summary: "Turn two-factor sign-in off (your password and a code)", responses: { 204: { description: "Off; the backup codes are gone." } }, errors: ["VALIDATION_ERROR", "CONFLICT"] }),
    requireUser,
    ...passwordCheckLimits,
    validate("json", DisableTwoFactorSchema),
    async (c) => {
      const { password, code } = c.req.valid("json");
      await disableTwoFactor(c.var.deps, currentUser(c).id, password, code);
      return c.body(null, 204);
    },
  );
