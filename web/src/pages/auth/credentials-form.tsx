import { useState, type FormEvent } from "react";
import { ErrorAlert, TextField } from "../../components/ui.tsx";
import { validateCredentials } from "../../lib/credentials.ts";
import { focusFirstInvalid, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";

type Props = {
  submitLabel: string;
  pendingLabel: string;
  passwordAutocomplete: "current-password" | "new-password";
  passwordHint?: string;
  pending: boolean;
  error: unknown;
  onSubmit(credentials: { email: string; password: string }): void;
};

/** Email and password, checked in the browser first; the server's own field errors show in place. */
export function CredentialsForm({ submitLabel, pendingLabel, passwordAutocomplete, passwordHint, pending, error, onSubmit }: Props) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const server = serverFieldErrors(error);
  const shown = { ...server, ...errors };

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateCredentials(email, password);
    setErrors(found);
    if (Object.keys(found).length > 0) focusFirstInvalid(e.currentTarget as HTMLFormElement);
    if (Object.keys(found).length === 0) onSubmit({ email: email.trim(), password });
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <ErrorAlert error={error} />
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={shown.email}
        required
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete={passwordAutocomplete}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={shown.password}
        hint={passwordHint}
        required
      />
      <button type="submit" className="button" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </button>
    </form>
  );
}
