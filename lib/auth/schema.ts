import * as z from "zod/mini";
import { PASSWORD_MAX, PASSWORD_MIN, passwordLength } from "./password.ts";

export const EmailSchema = z.pipe(
  z.pipe(
    z.string().check(z.trim(), z.maxLength(254, "must be at most 254 characters")),
    z.email("must be an email address"),
  ),
  z.transform((v) => v.toLowerCase()),
);

/** 8 to 72 characters (code points, so multibyte characters count once), never truncated. */
export const PasswordSchema = z.string().check(
  z.refine((v: string) => passwordLength(v) >= PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`),
  z.refine((v: string) => passwordLength(v) <= PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`),
);

const token = () => z.string().check(z.minLength(16, "is too short"), z.maxLength(200, "is too long"));

export const CredentialsSchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type Credentials = z.infer<typeof CredentialsSchema>;

export const ChangePasswordSchema = z.object({
  currentPassword: z.string().check(z.minLength(1, "is required"), z.maxLength(1024, "is too long")),
  newPassword: PasswordSchema,
});
/** DELETE /api/auth/account: the password again, and the words typed, so nothing deletes an account by accident. */
export const DeleteAccountSchema = z.strictObject({
  password: z.string().check(z.minLength(1, "is required"), z.maxLength(1024, "is too long")),
  confirm: z.literal("delete my account", { error: 'must be exactly "delete my account"' }),
});
export const TokenSchema = z.object({ token: token() });
export const ResetRequestSchema = z.object({ email: EmailSchema });
export const ResetConfirmSchema = z.object({ token: token(), password: PasswordSchema });
export const SessionIdParamSchema = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{40}$/, "must be a session id")) });

/** A code of the second factor as typed: 6 digits from the authenticator or a backup code (spaces and hyphens allowed). */
const code = () => z.string().check(z.trim(), z.minLength(1, "is required"), z.maxLength(32, "is too long"));
export const TwoFactorCodeSchema = z.strictObject({ code: code() });
export const DisableTwoFactorSchema = z.strictObject({
  password: z.string().check(z.minLength(1, "is required"), z.maxLength(1024, "is too long")),
  code: code(),
});
export const SignInChallengeSchema = z.strictObject({ challenge: token(), code: code() });
