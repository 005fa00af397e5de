import { ApiError } from "../api/errors.ts";

export type FieldErrors = Record<string, string>;

type Issue = { path: readonly PropertyKey[]; message: string };
type SafeParser<I> = { safeParse(value: I): { success: true } | { success: false; error: { issues: readonly Issue[] } } };

/** A schema's complaints about a form value, keyed by field (the same keys the API uses in `fields`). */
export function schemaErrors<I>(schema: SafeParser<I>, value: I): FieldErrors {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const out: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "");
    out[key] ??= issue.message;
  }
  return out;
}

/** Field errors carried by a failed request (a 400 VALIDATION_ERROR, a 409 on a name). */
export function serverFieldErrors(err: unknown): FieldErrors {
  return err instanceof ApiError ? err.fieldErrors() : {};
}

/**
 * After a refused submit, moves focus to the first field marked invalid, so keyboard and screen-reader
 * users land on what needs fixing. Runs after React has rendered the error state.
 */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  if (!form) return;
  setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
}
