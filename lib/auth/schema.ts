import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN, passwordLength } from "./password.ts";

export const EmailSchema = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be an email address"))
  .transform((v) => v.toLowerCase());

/** 8 to 72 characters (code points, so multibyte characters count once), never truncated. */
export const PasswordSchema = z
  .string()
  .refine((v) => passwordLength(v) >= PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .refine((v) => passwordLength(v) <= PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

export const CredentialsSchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type Credentials = z.infer<typeof CredentialsSchema>;

export const ChangePasswordSchema = z.object({ currentPassword: z.string().min(1).max(1024), newPassword: PasswordSchema });
export const TokenSchema = z.object({ token: z.string().min(16).max(200) });
export const ResetRequestSchema = z.object({ email: EmailSchema });
export const ResetConfirmSchema = z.object({ token: z.string().min(16).max(200), password: PasswordSchema });
export const SessionIdParamSchema = z.object({ id: z.string().regex(/^[0-9a-f]{40}$/, "must be a session id") });
