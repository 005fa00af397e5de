// Free text typed into the feedback form leaves the browser only after this pass. People paste what is
// on their screen: an API key they are stuck with, a curl line with a bearer token, their email. The
// intent matches lib/log.ts and lib/email/redact.ts (emails become "[email]", secrets "[redacted]");
// that code is not imported because the browser has no list of the secrets themselves, so here secrets are
// recognised by their shape.

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
  // Provider key prefixes (OpenAI/Anthropic/OpenRouter sk-, Stripe sk_/pk_/rk_/whsec_, GitHub, GitLab,
  // Slack, AWS access key ids, Google API keys, PostHog project and personal keys).
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

export const FEEDBACK_MAX_LENGTH = 2000;

/** The feedback text with secrets and email addresses replaced, trimmed and capped. */
export function scrubFeedbackText(text: string): string {
  let out = text.slice(0, FEEDBACK_MAX_LENGTH * 2);
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  out = out.replace(LONG_TOKEN, (token) => (looksGenerated(token) ? REDACTED : token));
  return out.trim().slice(0, FEEDBACK_MAX_LENGTH);
}
