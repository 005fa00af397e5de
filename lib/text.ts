// Text Postgres can store: no NUL character (U+0000; text and jsonb refuse it) and well-formed UTF-16 (a lone
// surrogate is refused by jsonb and turned into U+FFFD elsewhere). Checked once for every request value in
// lib/http's `validate`, and for CSV uploads as they are decoded.

const NUL = "\u0000";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or null. */
export function textProblem(value: string): string | null {
  if (value.includes(NUL)) return "must not contain a NUL character (U+0000)";
  if (LONE_SURROGATE.test(value)) return "must be well-formed text (it holds a lone UTF-16 surrogate)";
  return null;
}

/** Every string (keys included) in a parsed JSON, query or path value that cannot be stored, with its path. */
export function textProblems(value: unknown, path: PropertyKey[] = [], found: Array<{ path: PropertyKey[]; message: string }> = []) {
  if (typeof value === "string") {
    const problem = textProblem(value);
    if (problem) found.push({ path, message: problem });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => textProblems(v, [...path, i], found));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const problem = textProblem(k);
      if (problem) found.push({ path: [...path, k], message: `has a field name that ${problem}` });
      textProblems(v, [...path, k], found);
    }
  }
  return found;
}
