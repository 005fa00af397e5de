// Text Postgres can store: no NUL character (U+0000; text and jsonb refuse it) and well-formed UTF-16 (a lone
// surrogate is refused by jsonb and turned into U+FFFD elsewhere). Checked once for every request value in
// lib/http's `validate`, and for CSV uploads as they are decoded.

const NUL = "\u0000";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `value` without what Postgres cannot store (NUL characters, lone surrogates), for labels we keep as given. */
export function storableText(value: string): string {
  return value.replaceAll(NUL, "").replace(new RegExp(LONE_SURROGATE.source, "g"), "");
}

/** Why a string cannot be stored, or null. */
export function textProblem(value: string): string | null {
  if (value.includes(NUL)) return "must not contain a NUL character (U+0000)";
  if (LONE_SURROGATE.test(value)) return "must be well-formed text (it holds a lone UTF-16 surrogate)";
  return null;
}

/** Deeper JSON than any route takes: refused, so no check (or schema) walks a pathological document. */
export const MAX_DEPTH = 32;

/**
 * Every string (keys included) in a parsed JSON, query or path value that cannot be stored, with its path,
 * and any value nested deeper than MAX_DEPTH. Walked with an explicit stack: a deep document cannot
 * exhaust the call stack.
 */
export function textProblems(value: unknown): Array<{ path: PropertyKey[]; message: string }> {
  const found: Array<{ path: PropertyKey[]; message: string }> = [];
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  while (stack.length && found.length < 20) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === "string") {
      const problem = textProblem(v);
      if (problem) found.push({ path, message: problem });
    } else if (v !== null && typeof v === "object") {
      if (path.length >= MAX_DEPTH) {
        found.push({ path, message: `is nested more than ${MAX_DEPTH} levels deep` });
        continue;
      }
      const entries: Array<[PropertyKey, unknown]> = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
      for (const [k, item] of entries.reverse()) {
        if (typeof k === "string") {
          const problem = textProblem(k);
          if (problem) found.push({ path: [...path, k], message: `has a field name that ${problem}` });
        }
        stack.push({ value: item, path: [...path, k] });
      }
    }
  }
  return found;
}
