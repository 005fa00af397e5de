import { consumeResetPasswordToken, consumeVerifyEmailToken, issueEmailToken } from "../lib/auth/email-tokens.ts";
import {
  ChangePasswordSchema,
  CredentialsSchema,
  DeleteAccountSchema,
  DisableTwoFactorSchema,
  ResetConfirmSchema,
  ResetRequestSchema,
  SessionIdParamSchema,
  SignInChallengeSchema,
  TokenSchema,
  TwoFactorCodeSchema,
} from "../lib/auth/schema.ts";
import {
  completeSignInChallenge,
  createSignInChallenge,
  disableTwoFactor,
  enableTotp,
  regenerateBackupCodes,
  startTotpSetup,
  twoFactorStatus,
} from "../lib/auth/two-factor.ts";
import { createToken, deleteToken, listTokens, NewTokenSchema, TokenIdParamSchema } from "../lib/auth/tokens.ts";
import { startSession } from "./sign-in.ts";
import { endOwnSession, endSession, endUserSessions, listSessions } from "../lib/auth/session.ts";
import { DATA_IMPORT_MAX_BYTES, DataExportSchema, exportUserData, importUserData } from "../lib/accounts/data-export.ts";
import { assertRegistrationOpen, authenticate, changePassword, deleteOwnAccount, findUserByEmail, publicUser, registerUser } from "../lib/auth/users.ts";
import type { Deps } from "../lib/deps.ts";
import { passwordResetEmail, verificationEmail } from "../lib/email/index.ts";
import { AppError } from "../lib/errors.ts";
import {
  clearSessionCookie,
  csrfTokenFor,
  currentSession,
  currentUser,
  loginLimit,
  optionalUser,
  passwordCheckLimits,
  rateLimit,
  readDeviceCookie,
  requireUser,
  signInStepLimit,
} from "../lib/http/auth.ts";
import { createRouter, readUpload, validate, type AppEnv, type Group } from "../lib/http/index.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";
import {
  BackupCodesSchema,
  CsrfSchema,
  DataImportBodySchema,
  DataImportSummarySchema,
  MaybeUserSchema,
  SessionListSchema,
  SignedInSchema,
  SignInResultSchema,
  NewTokenResultSchema,
  TokenListSchema,
  TotpSetupSchema,
  TwoFactorStatusSchema,
  UserSchema,
} from "../lib/http/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import type { MiddlewareHandler } from "hono";

const registrationOpen: MiddlewareHandler<AppEnv> = async (c, next) => {
  assertRegistrationOpen(c.var.deps.config);
  await next();
};

/** Mails a verification link after the response; does nothing when email is off. */
function sendVerification(deps: Deps, user: { id: string; email: string }) {
  const mailer = deps.mailer;
  if (!mailer) return;
  deps.defer(async () => {
    const token = await issueEmailToken(deps, user.id, "verify_email");
    await mailer.send({ to: user.email, ...verificationEmail(deps.config, token) });
  });
}


export const auth = createRouter()
  // Closed sign-up answers 403 before anything else is looked at: not 429 to a busy client, nor 400 to a bad body.
  .post("/register", describeRoute({ tag: "auth", summary: "Create an account and sign in (sets the session cookie)", public: true, responses: { 201: { description: "Signed in as the new user.", schema: SignedInSchema } }, errors: ["REGISTRATION_DISABLED", "CONFLICT"] }), registrationOpen, rateLimit(LIMITS.register, "client"), validate("json", CredentialsSchema), async (c) => {
    const user = await registerUser(c.var.deps, c.req.valid("json"));
    const extra = await startSession(c, user, "sign-up");
    sendVerification(c.var.deps, user);
    return c.json({ user: publicUser(user), ...extra }, 201);
  })
  .post(
    "/login",
    describeRoute({
      tag: "auth",
      summary: "Sign in (sets the session cookie), or start the second step when two-factor sign-in is on",
      description: "With two-factor sign-in on, the right password answers `{twoFactorRequired: true, challenge}` and sets no cookie: send the challenge and a code to POST /api/auth/login/2fa within 5 minutes.",
      public: true,
      responses: { 200: { description: "Signed in, or the challenge of the second step.", schema: SignInResultSchema } },
      errors: ["UNAUTHORIZED", "RATE_LIMITED"],
    }),
    loginLimit,
    validate("json", CredentialsSchema),
    async (c) => {
      const user = await authenticate(c.var.deps, c.req.valid("json"), readDeviceCookie(c));
      if (user.totp || user.passkey) {
        const methods = [...(user.totp ? (["totp"] as const) : []), ...(user.passkey ? (["passkey"] as const) : [])];
        return c.json({ twoFactorRequired: true as const, challenge: await createSignInChallenge(c.var.deps, user.id), methods });
      }
      // Always a new session (no fixation). A session presented with the login is left as it is: a sign-in
      // adds one session (SPEC section 3), and the five-session cap ends the oldest.
      const extra = await startSession(c, user, "sign-in");
      return c.json({ user: publicUser(user), ...extra });
    },
  )
  .post(
    "/login/2fa",
    describeRoute({
      tag: "auth",
      summary: "Sign in, second step: the challenge and a code from the authenticator or a backup code (sets the session cookie)",
      description: "A challenge lives 5 minutes and takes 5 tries (codes here and passkey answers at POST /api/passkeys/second-step together). A wrong code answers exactly like a wrong password and counts toward the account's lockout.",
      public: true,
      responses: { 200: { description: "Signed in.", schema: SignedInSchema } },
      errors: ["UNAUTHORIZED", "RATE_LIMITED"],
    }),
    signInStepLimit,
    validate("json", SignInChallengeSchema),
    async (c) => {
      const { challenge, code } = c.req.valid("json");
      const user = await completeSignInChallenge(c.var.deps, challenge, code, readDeviceCookie(c));
      const extra = await startSession(c, user, "sign-in");
      return c.json({ user: publicUser(user), ...extra });
    },
  )
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
  )
  .post("/logout", describeRoute({ tag: "auth", summary: "Sign out: end this session", responses: { 204: { description: "Signed out; the cookie is cleared." } } }), requireUser, async (c) => {
    await endSession(c.var.deps, currentSession(c).id);
    clearSessionCookie(c);
    return c.body(null, 204);
  })
  .get("/me", describeRoute({ tag: "auth", summary: "The signed-in user", responses: { 200: { description: "The user.", schema: UserSchema } } }), requireUser, (c) => c.json({ user: publicUser(currentUser(c)) }))
  // The browser app's "am I signed in?" check: 200 with or without a session, so a signed-out visitor's
  // first page load logs no failed request.
  .get("/session", describeRoute({ tag: "auth", summary: "The signed-in user, or null (200 either way)", responses: { 200: { description: "The user or null.", schema: MaybeUserSchema } } }), optionalUser, (c) => c.json({ user: c.var.user ? publicUser(c.var.user) : null }))
  .get("/csrf", describeRoute({ tag: "auth", summary: "The anti-CSRF token of this session (cross-origin mode)", responses: { 200: { description: "The token.", schema: CsrfSchema } } }), requireUser, (c) => c.json({ csrfToken: csrfTokenFor(c.var.deps.config, currentSession(c).id) }))
  .get("/sessions", describeRoute({ tag: "auth", summary: "Your live sessions, newest first", responses: { 200: { description: "The sessions; `current` marks this one.", schema: SessionListSchema } } }), requireUser, async (c) =>
    c.json({ sessions: await listSessions(c.var.deps, currentUser(c).id, currentSession(c).id) }),
  )
  // "Sign out everywhere else": every session of the user but this one, and every access token.
  .delete("/sessions", describeRoute({ tag: "auth", summary: "Sign out everywhere else (every access token is revoked too)", responses: { 204: { description: "Every other session ended, every access token revoked." } } }), requireUser, async (c) => {
    await endUserSessions(c.var.deps, currentUser(c).id, currentSession(c).id);
    return c.body(null, 204);
  })
  .delete("/sessions/:id", describeRoute({ tag: "auth", summary: "End one of your sessions", responses: { 204: { description: "Ended (this one too: the cookie is cleared)." } } }), requireUser, validate("param", SessionIdParamSchema), async (c) => {
    const { id } = c.req.valid("param");
    if (!(await endOwnSession(c.var.deps, currentUser(c).id, id))) throw new AppError("NOT_FOUND", "No such session.");
    if (id === currentSession(c).id) clearSessionCookie(c);
    return c.body(null, 204);
  })
  .post(
    "/tokens",
    describeRoute({
      tag: "auth",
      summary: "Make a personal access token for a script or a trading platform (the token is shown this once)",
      description:
        "Scopes: `read` (every GET outside auth, keys, billing, advisor, archive and admin), `import` (CSV import: preview, commit, discard, undo), `fills:write` (fills: add, correct, delete). Up to 20 tokens; `expiresInDays` 1 to 365 (default 90). Takes your `password`, and a `code` (authenticator or backup) when two-factor sign-in is on: wrong or missing, 400 naming it and no token made. The owner is mailed when a token is made; a password change, a reset and signing out everywhere revoke every token.",
      responses: { 201: { description: "The token; only its hash is kept.", schema: NewTokenResultSchema } },
      errors: ["VALIDATION_ERROR", "CONFLICT"],
    }),
    requireUser,
    // A body that cannot be a token is refused before the password budget counts it: it checks no password.
    validate("json", NewTokenSchema),
    ...passwordCheckLimits,
    async (c) => c.json(await createToken(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get("/tokens", describeRoute({ tag: "auth", summary: "Your personal access tokens (never the tokens themselves), newest first", responses: { 200: { description: "The tokens.", schema: TokenListSchema } } }), requireUser, async (c) =>
    c.json({ tokens: await listTokens(c.var.deps, currentUser(c).id) }),
  )
  .delete("/tokens/:id", describeRoute({ tag: "auth", summary: "Revoke a personal access token (at once)", responses: { 204: { description: "Revoked." } } }), requireUser, validate("param", TokenIdParamSchema), async (c) => {
    if (!(await deleteToken(c.var.deps, currentUser(c).id, c.req.valid("param").id))) throw new AppError("NOT_FOUND", "No such token.");
    return c.body(null, 204);
  })
  .post("/password", describeRoute({ tag: "auth", summary: "Change your password (ends your other sessions and revokes every access token)", responses: { 204: { description: "Changed." } } }), requireUser, ...passwordCheckLimits, validate("json", ChangePasswordSchema), async (c) => {
    const { currentPassword, newPassword } = c.req.valid("json");
    await changePassword(c.var.deps, currentUser(c).id, currentPassword, newPassword);
    await endUserSessions(c.var.deps, currentUser(c).id, currentSession(c).id);
    return c.body(null, 204);
  })
  .delete(
    "/account",
    describeRoute({
      tag: "auth",
      summary: "Delete your account and everything in it (your password, and confirm: \"delete my account\")",
      description: "A Pro subscription the payment provider may still bill is cancelled there first: if that fails (502) or cannot be done on this instance (402), nothing is deleted.",
      responses: { 204: { description: "Deleted; every session ended and the cookie cleared." } },
      errors: ["LAST_ADMIN", "PAYMENT_PROVIDER_ERROR", "BILLING_NOT_AVAILABLE"],
    }),
    requireUser,
    ...passwordCheckLimits,
    validate("json", DeleteAccountSchema),
    async (c) => {
      await deleteOwnAccount(c.var.deps, currentUser(c).id, c.req.valid("json").password);
      clearSessionCookie(c);
      return c.body(null, 204);
    },
  )
  .get(
    "/account/export",
    describeRoute({
      tag: "auth",
      summary: "Everything you entered, as one JSON file (brokerages, accounts, ledgers, fills, trade journals) that an import restores",
      responses: { 200: { description: "The export (format trading-journal-export, version 1).", schema: DataExportSchema } },
    }),
    requireUser,
    async (c) => {
      const { json, fileName } = await exportUserData(c.var.deps, currentUser(c));
      c.header("Content-Disposition", `attachment; filename="${fileName}"`);
      c.header("Cache-Control", "no-store");
      return c.body(json, 200, { "Content-Type": "application/json; charset=utf-8" });
    },
  )
  .post(
    "/account/import",
    describeRoute({
      tag: "auth",
      summary: "Restore a JSON export into your data: its accounts are added, all or nothing",
      body: { contentType: "multipart/form-data", schema: DataImportBodySchema },
      responses: { 201: { description: "What was added.", schema: DataImportSummarySchema } },
      errors: ["VALIDATION_ERROR", "CONFLICT", "INVALID_TIMEZONE", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "TIER_LIMIT_ACCOUNTS"],
    }),
    requireUser,
    async (c) => {
      const { file } = await readUpload(c, DATA_IMPORT_MAX_BYTES, "the 25 MB limit for an export file", "the export");
      return c.json(await importUserData(c.var.deps, currentUser(c), new TextDecoder().decode(file.bytes)), 201);
    },
  )
  .post("/verify-email", describeRoute({ tag: "auth", summary: "Confirm an email address with the mailed token", public: true, responses: { 200: { description: "Confirmed.", schema: UserSchema } } }), validate("json", TokenSchema), async (c) => {
    const user = await consumeVerifyEmailToken(c.var.deps, c.req.valid("json").token);
    return c.json({ user: publicUser(user) });
  })
  .post("/verify-email/resend", describeRoute({ tag: "auth", summary: "Mail a new confirmation link (404 when email is off)", responses: { 202: { description: "Sent, unless already confirmed." } }, errors: ["NOT_FOUND"] }), requireUser, rateLimit(LIMITS.emailResend, "user"), (c) => {
    const user = currentUser(c);
    if (!c.var.deps.mailer) throw new AppError("NOT_FOUND", "Email is not configured on this instance.");
    if (!user.emailVerified) sendVerification(c.var.deps, user);
    return c.body(null, 202);
  })
  .post(
    "/password-reset/request",
    describeRoute({ tag: "auth", summary: "Mail a password reset link (202 whatever the address)", public: true, responses: { 202: { description: "Accepted." } } }), 
    rateLimit(LIMITS.passwordResetRequest, "client"),
    validate("json", ResetRequestSchema),
    async (c) => {
      const { deps } = c.var;
      const mailer = deps.mailer;
      const { email } = c.req.valid("json");
      // The same 202 whatever the address, and the lookup and mail happen after the response, so
      // neither the answer nor its timing says whether an account exists.
      if (mailer) {
        deps.defer(async () => {
          const user = await findUserByEmail(deps, email);
          if (!user) return;
          const token = await issueEmailToken(deps, user.id, "reset_password");
          await mailer.send({ to: user.email, ...passwordResetEmail(deps.config, token) });
        });
      }
      return c.body(null, 202);
    },
  )
  .post("/password-reset/confirm", describeRoute({ tag: "auth", summary: "Set a new password with the mailed token (ends every session, revokes every access token, lifts the sign-in lockout)", public: true, responses: { 204: { description: "Changed." } } }), validate("json", ResetConfirmSchema), async (c) => {
    const { token, password } = c.req.valid("json");
    await consumeResetPasswordToken(c.var.deps, token, password);
    return c.body(null, 204);
  });

export const authGroup = { prefix: "/api/auth", app: auth } as const satisfies Group;
