// Scrubbing for error messages that come back from a mail server or an email API: they are built from
// text we do not control, and callers log them.

const EMAIL = /[^\s@"'<>()[\]]+@[^\s@"'<>()[\]]+\.[^\s@"'<>()[\]]+/g;
// Tokens travel only inside links (`?token=`); if a server ever echoes a line of the body, cut them out.
const TOKEN_PARAM = /(token=)[^\s&"'<>]+/gi;
const MAX_DETAIL = 300;

/** Removes each secret (and its base64 forms, as SMTP AUTH sends them), email addresses and link tokens. */
export function scrub(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of secretForms(secret)) out = out.split(form).join("[redacted]");
  }
  out = out.replace(TOKEN_PARAM, "$1[redacted]").replace(EMAIL, "[email]");
  return out.length > MAX_DETAIL ? `${out.slice(0, MAX_DETAIL)}...` : out;
}

function secretForms(secret: string): string[] {
  // btoa over UTF-8 bytes rather than Buffer: this file also runs on Workers.
  const base64 = btoa(Array.from(new TextEncoder().encode(secret), (b) => String.fromCharCode(b)).join(""));
  return [secret, base64];
}
