import type { FieldErrors } from "./form-errors.ts";

// The server's credential rules (lib/auth/schema.ts), checked before sending so the reader sees them at
// once. That schema module pulls in the password hasher (node:crypto), so the rules are restated here;
// the server stays the authority and its field errors are shown the same way.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;

export function validateCredentials(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  const trimmed = email.trim();
  if (trimmed === "") errors.email = "is required";
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) errors.email = "must be an email address";
  // Characters as code points, like the server: "é" counts once.
  const length = [...password].length;
  if (length === 0) errors.password = "is required";
  else if (length < PASSWORD_MIN) errors.password = `must be at least ${PASSWORD_MIN} characters`;
  else if (length > PASSWORD_MAX) errors.password = `must be at most ${PASSWORD_MAX} characters`;
  return errors;
}

/** A new password alone (change and reset forms): the same rule as validateCredentials' password. */
export function passwordProblem(password: string): string | undefined {
  return validateCredentials("someone@example.com", password).password;
}
