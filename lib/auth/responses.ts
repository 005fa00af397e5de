// The response bodies of the auth routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { id, iso } from "../fields.ts";

export const PublicUserSchema = z.object({ id: id(), email: z.string(), emailVerified: z.boolean(), isAdmin: z.boolean() });

/** Register and login: the user, and in cross-origin mode the anti-CSRF token for the new session. */
export const SignedInSchema = z.object({ user: PublicUserSchema, csrfToken: z.optional(z.string()) });

/** POST /api/auth/login: signed in, or (the second factor on) the challenge for POST /api/auth/login/2fa. */
export const SignInResultSchema = z.union([
  SignedInSchema,
  z.object({ twoFactorRequired: z.literal(true), challenge: z.string(), methods: z.array(z.enum(["totp", "passkey"])) }),
]);

/** WebAuthn options as navigator.credentials wants them (JSON form; lib/auth/passkeys.ts). */
export const WebauthnOptionsSchema = z.looseObject({ challenge: z.string() });

export const WebauthnFlowSchema = z.object({ flowId: z.string(), options: WebauthnOptionsSchema });

export const PasskeySchema = z.object({ id: z.string(), name: z.string(), createdAt: iso(), lastUsedAt: z.nullable(iso()), backedUp: z.boolean() });

export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema) });

const TokenInfoShape = {
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(["read", "import", "fills:write"])),
  createdAt: iso(),
  expiresAt: z.nullable(iso()),
};

export const NewTokenResultSchema = z.object({ ...TokenInfoShape, token: z.string() });

export const TokenListSchema = z.object({ tokens: z.array(z.object({ ...TokenInfoShape, lastUsedAt: z.nullable(iso()) })) });

export const TotpSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string() });

export const BackupCodesSchema = z.object({ backupCodes: z.array(z.string()) });

export const TwoFactorStatusSchema = z.object({ enabled: z.boolean(), enabledAt: z.nullable(iso()), backupCodesLeft: z.number() });

export const UserSchema = z.object({ user: PublicUserSchema });

export const MaybeUserSchema = z.object({ user: z.nullable(PublicUserSchema) });

export const CsrfSchema = z.object({ csrfToken: z.string() });

export const SessionListSchema = z.object({
  sessions: z.array(z.object({ id: z.string(), createdAt: iso(), lastSeenAt: iso(), expiresAt: iso(), userAgent: z.nullable(z.string()), current: z.boolean() })),
});
