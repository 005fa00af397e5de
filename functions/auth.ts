import { consumeResetPasswordToken, consumeVerifyEmailToken, issueEmailToken } from "../lib/auth/email-tokens.ts";
import {
  ChangePasswordSchema,
  CredentialsSchema,
  ResetConfirmSchema,
  ResetRequestSchema,
  SessionIdParamSchema,
  SignInChallengeSchema,
  TokenSchema,
} from "../lib/auth/schema.ts";
import {
  completeSignInChallenge,
  createSignInChallenge,
} from "../lib/auth/two-factor.ts";

import { startSession } from "./sign-in.ts";
import { twoFactorRoutes } from "./auth-two-factor.ts";
import { tokenRoutes } from "./auth-tokens.ts";
import { accountRoutes } from "./auth-account.ts";
import { endOwnSession, endSession, endUserSessions, listSessions } from "../lib/auth/session.ts";

import { assertRegistrationOpen, authenticate, changePassword, findUserByEmail, publicUser, registerUser } from "../lib/auth/users.ts";
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
import { createRouter, validate, type AppEnv, type Group } from "../lib/http/index.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";
import { CsrfSchema, MaybeUserSchema, SessionListSchema, SignedInSchema, SignInResultSchema, UserSchema } from "../lib/auth/responses.ts";
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
  // Two-factor sign-in, access tokens and the account itself: route modules of their own, under the same prefix.
  .route("/", twoFactorRoutes)
  .route("/", tokenRoutes)
  .route("/", accountRoutes)
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
  .post("/password", describeRoute({ tag: "auth", summary: "Change your password (ends your other sessions and revokes every access token)", responses: { 204: { description: "Changed." } } }), requireUser, ...passwordCheckLimits, validate("json", ChangePasswordSchema), async (c) => {
    const { currentPassword, newPassword } = c.req.valid("json");
    await changePassword(c.var.deps, currentUser(c).id, currentPassword, newPassword);
    await endUserSessions(c.var.deps, currentUser(c).id, currentSession(c).id);
    return c.body(null, 204);
  })
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
