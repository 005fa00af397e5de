import {
  ChallengeOnlySchema,
  deletePasskey,
  DeletePasskeySchema,
  listPasskeys,
  NewPasskeySchema,
  PasskeyIdParamSchema,
  passkeyRegistrationOptions,
  passkeySignIn,
  passkeySignInOptions,
  PasskeySignInSchema,
  registerPasskey,
  secondStepOptions,
  SecondStepSchema,
  secondStepWithPasskey,
} from "../lib/auth/passkeys.ts";
import { publicUser } from "../lib/auth/session.ts";
import { track } from "../lib/analytics/index.ts";
import { AppError } from "../lib/errors.ts";
import { currentUser, passwordCheckLimits, readDeviceCookie, requireUser, signInStepLimit } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { PasskeyListSchema, PasskeySchema, SignedInSchema, WebauthnFlowSchema, WebauthnOptionsSchema } from "../lib/auth/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { relyingParty, startSession } from "./sign-in.ts";

// Passkeys (docs/auth.md, "Passkeys"): a group and a Worker of their own, so the WebAuthn library weighs on
// this bundle only. Sign-ins here start sessions exactly as /api/auth/login does (functions/sign-in.ts).

export const passkeysRoutes = createRouter()
  .get("/", describeRoute({ tag: "passkeys", summary: "Your passkeys", responses: { 200: { description: "The passkeys.", schema: PasskeyListSchema } } }), requireUser, async (c) =>
    c.json({ passkeys: await listPasskeys(c.var.deps, currentUser(c).id) }),
  )
  .post(
    "/options",
    describeRoute({
      tag: "passkeys",
      summary: "Add a passkey, step one: the options for navigator.credentials.create()",
      responses: { 200: { description: "The flow id to send back, and the WebAuthn creation options.", schema: WebauthnFlowSchema } },
      errors: ["CONFLICT"],
    }),
    requireUser,
    async (c) => c.json(await passkeyRegistrationOptions(c.var.deps, currentUser(c), relyingParty(c))),
  )
  .post(
    "/",
    describeRoute({
      tag: "passkeys",
      summary: "Add a passkey, step two: the flow id, a name and the authenticator's answer",
      description: "From then on the passkey signs you in by itself, and is asked for (like an authenticator code) after your password.",
      responses: { 201: { description: "The passkey.", schema: PasskeySchema } },
      errors: ["CONFLICT"],
    }),
    requireUser,
    validate("json", NewPasskeySchema),
    async (c) => c.json(await registerPasskey(c.var.deps, currentUser(c), relyingParty(c), c.req.valid("json")), 201),
  )
  .delete(
    "/:id",
    describeRoute({ tag: "passkeys", summary: "Remove a passkey (your password)", responses: { 204: { description: "Removed." } } }),
    requireUser,
    ...passwordCheckLimits,
    validate("param", PasskeyIdParamSchema),
    validate("json", DeletePasskeySchema),
    async (c) => {
      if (!(await deletePasskey(c.var.deps, currentUser(c).id, c.req.valid("param").id, c.req.valid("json").password))) {
        throw new AppError("NOT_FOUND", "No such passkey.");
      }
      return c.body(null, 204);
    },
  )
  .post(
    "/sign-in/options",
    describeRoute({
      tag: "passkeys",
      summary: "Sign in with a passkey, step one: the options for navigator.credentials.get() (any of your passkeys, user verification required)",
      public: true,
      responses: { 200: { description: "The flow id to send back, and the WebAuthn request options.", schema: WebauthnFlowSchema } },
      errors: ["RATE_LIMITED"],
    }),
    signInStepLimit,
    async (c) => c.json(await passkeySignInOptions(c.var.deps, relyingParty(c))),
  )
  .post(
    "/sign-in",
    describeRoute({
      tag: "passkeys",
      summary: "Sign in with a passkey, step two: the flow id and the passkey's answer (sets the session cookie)",
      description: "A passkey with user verification is two factors by itself: no password and no code are asked.",
      public: true,
      responses: { 200: { description: "Signed in.", schema: SignedInSchema } },
      errors: ["UNAUTHORIZED", "RATE_LIMITED"],
    }),
    signInStepLimit,
    validate("json", PasskeySignInSchema),
    async (c) => {
      const user = await passkeySignIn(c.var.deps, relyingParty(c), c.req.valid("json"));
      track(c.var.deps, "user signed in", user.id, {});
      const extra = await startSession(c, user, "sign-in");
      return c.json({ user: publicUser(user), ...extra });
    },
  )
  .post(
    "/second-step/options",
    describeRoute({
      tag: "passkeys",
      summary: "A password sign-in's second step with a passkey: the options for navigator.credentials.get() naming your passkeys",
      description: "For the challenge POST /api/auth/login answered (`methods` includes \"passkey\").",
      public: true,
      responses: { 200: { description: "The WebAuthn request options.", schema: WebauthnOptionsSchema } },
      errors: ["UNAUTHORIZED", "CONFLICT", "RATE_LIMITED"],
    }),
    signInStepLimit,
    validate("json", ChallengeOnlySchema),
    async (c) => c.json(await secondStepOptions(c.var.deps, relyingParty(c), c.req.valid("json").challenge)),
  )
  .post(
    "/second-step",
    describeRoute({
      tag: "passkeys",
      summary: "A password sign-in's second step answered with a passkey (sets the session cookie)",
      description: "Counted with the codes tried at POST /api/auth/login/2fa (5 tries, 5 minutes); a refused answer is the same 401 as a wrong password and counts toward the account's lockout.",
      public: true,
      responses: { 200: { description: "Signed in.", schema: SignedInSchema } },
      errors: ["UNAUTHORIZED", "RATE_LIMITED"],
    }),
    signInStepLimit,
    validate("json", SecondStepSchema),
    async (c) => {
      const { challenge, credential } = c.req.valid("json");
      const user = await secondStepWithPasskey(c.var.deps, relyingParty(c), challenge, credential, readDeviceCookie(c));
      const extra = await startSession(c, user, "sign-in");
      return c.json({ user: publicUser(user), ...extra });
    },
  );

export const passkeysGroup = { prefix: "/api/passkeys", app: passkeysRoutes } as const satisfies Group;
