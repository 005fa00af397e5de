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

/** Which field a refusal other than VALIDATION_ERROR is about, and what to say next to it: `{CONFLICT: ["name", "is already used"]}`. */
export type FieldOfCode = Partial<Record<string, readonly [field: string, message: string]>>;

/**
 * Field errors of a failed request: the `fields` of a 400 VALIDATION_ERROR (the only error that carries
 * them), or the field `byCode` names for another code (a 409 on a name, an unknown time zone).
 */
export function serverFieldErrors(err: unknown, byCode: FieldOfCode = {}): FieldErrors {
  if (!(err instanceof ApiError)) return {};
  const named = byCode[err.code];
  if (err.fields.length === 0 && named) return { [named[0]]: named[1] };
  return err.fieldErrors();
}

/**
 * After a refused submit, moves focus to the first field marked invalid, so keyboard and screen-reader
 * users land on what needs fixing. Runs after React has rendered the error state.
 */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  if (!form) return;
  setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
}
