// The redaction guard of analytics, used by the server's events (lib/analytics/index.ts) and by the
// browser's feedback form (web/src/analytics/scrub.ts). People and code put what is at hand into a value:
// an API key they are stuck with, a curl line with a bearer token, their email, the name of the file they
// uploaded. Secrets are recognised by their shape (the browser has no list of them); the server also
// removes the exact values of its own configured secrets. Emails become "[email]", secrets "[redacted]",
// upload file names "[file]".

const REDACTED = "[redacted]";

type Rule = [pattern: RegExp, replacement: string];

const RULES: Rule[] = [
  // user:password@ inside a URL, before the email rule sees "password@host".
  [/(\/\/)[^\s/?#@]+@/g, `$1${REDACTED}@`],
  // Authorization header values as people paste them from curl or dev tools.
  [/\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{6,}/gi, `$1$2${REDACTED}`],
  // key=value and key: value where the key names a secret (api_key=, client_secret:, password=, ?token=,
  // ENCRYPTION_KEY=).
  [/\b([A-Za-z0-9_-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|apikey|credential|[_-]key\b)[A-Za-z0-9_-]*)(\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s&,;]+)/gi, `$1$2${REDACTED}`],
  // JSON Web Tokens.
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // Provider key prefixes: OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter (sk-or-v1-), Stripe
  // (sk_/pk_/rk_/whsec_), GitHub, GitLab, Slack, AWS access key ids, Google/Gemini API keys (AIza), PostHog
  // project and personal keys.
  [/\b(?:sk|pk|rk|whsec|ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abprs]|phc|phx|AKIA|ASIA|AIza)[-_A-Za-z0-9]{12,}/g, REDACTED],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, "[email]"],
  // Long hexadecimal strings (raw keys, hashes, session ids); a canonical uuid is kept below.
  [/\b[0-9a-fA-F]{32,}\b/g, REDACTED],
];

// Base64 and base64url runs of 24+ characters mixing upper case, lower case and digits: the shape of
// generated secrets, and not of words, prices, dates, tickers or URL paths.
const LONG_TOKEN = /[A-Za-z0-9+/_=-]{24,}/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function looksGenerated(token: string): boolean {
  if (UUID.test(token)) return false;
  return /[A-Z]/.test(token) && /[a-z]/.test(token) && /[0-9]/.test(token);
}

/** `text` with secrets (by their shape) and email addresses replaced. */
export function scrubSecretShapes(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out.replace(LONG_TOKEN, (token) => (looksGenerated(token) ? REDACTED : token));
}

// A file name as uploads carry them: a name without spaces or slashes ending in a document or image
// extension ("IBKR trades 2024.csv" loses at least its last word; "report.csv" all of it).
const FILE_NAME = /[^\s/\\"'<>]*\.(?:csv|tsv|txt|xlsx?|xls|ods|json|xml|pdf|png|jpe?g|webp|gif|heic|heif|bmp|tiff?|zip)\b/gi;

// Property names whose values are never sent, whatever they look like ("inputTokens", a count, is not one).
const SECRET_NAME = /secret|token(?!s$)|passw|pwd|api[-_]?key|private[-_]?key|^key$|authorization|cookie|session|credential|e-?mail|file[-_]?name/i;

/** Longest string an analytics value keeps: events carry labels and counts, not text. */
const MAX_STRING = 200;

/**
 * The properties of one event with the guard applied to every value: a property named like a secret is
 * "[redacted]" whatever its value; strings lose configured secrets (`secrets`), secret shapes, emails and
 * file names; nested objects and arrays are walked. Numbers, booleans and null pass as they are.
 */
export function redactProperties(properties: Record<string, unknown>, secrets: readonly string[] = []): Record<string, unknown> {
  const walk = (value: unknown, name: string, depth: number): unknown => {
    if (SECRET_NAME.test(name)) return REDACTED;
    if (typeof value === "string") {
      let out = value;
      for (const secret of secrets) out = out.split(secret).join(REDACTED);
      out = scrubSecretShapes(out).replace(FILE_NAME, "[file]");
      return out.length > MAX_STRING ? `${out.slice(0, MAX_STRING)}...` : out;
    }
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (typeof value === "boolean" || value === null || value === undefined) return value ?? null;
    if (depth >= 4) return null;
    if (Array.isArray(value)) return value.slice(0, 50).map((v) => walk(v, "", depth + 1));
    if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k, depth + 1)]));
    return null;
  };
  return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, walk(v, k, 0)]));
}
