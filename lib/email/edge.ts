// The Workers mailer. Workers cannot open SMTP connections, so the one supported provider there is
// Resend, reached over its HTTP API (https://resend.com/docs/api-reference/emails/send-email).
// Resend's SMTP password is an API key, so the same SMTP_HOST/SMTP_PASS configuration works on both
// entrypoints. Plain fetch rather than the `resend` package: the package reads process.env
// (RESEND_BASE_URL and others) and always calls the global fetch, so it cannot take ours.
import type { Config } from "../config/index.ts";
import { scrub } from "./redact.ts";
import type { Mailer } from "./types.ts";

export const RESEND_SMTP_HOST = "smtp.resend.com";
export const RESEND_API_BASE_URL = "https://api.resend.com";
export const EMAIL_API_TIMEOUT_MS = 15_000;

export const SMTP_ON_EDGE_MESSAGE =
  "Email over SMTP needs the Node entrypoint; on Workers use Resend (SMTP_HOST=smtp.resend.com, SMTP_PASS=<Resend API key>).";

/** True when SMTP_HOST names Resend's SMTP relay, which the edge mailer replaces with Resend's HTTP API. */
export function isResendHost(host: string | undefined): boolean {
  return (host ?? "").trim().toLowerCase().replace(/\.$/, "") === RESEND_SMTP_HOST;
}

/**
 * undefined when email is off. With any SMTP_HOST other than Resend's, the mailer's send always throws
 * SMTP_ON_EDGE_MESSAGE, so the misconfiguration shows up on the first send instead of silently dropping mail.
 */
export function createEdgeMailer(config: Config, fetchFn: typeof fetch): Mailer | undefined {
  if (!config.features.email || !config.EMAIL_FROM) return undefined;
  if (!isResendHost(config.SMTP_HOST)) return failingMailer(SMTP_ON_EDGE_MESSAGE);
  const apiKey = config.SMTP_PASS;
  if (!apiKey) return failingMailer("Email through Resend needs SMTP_PASS set to the Resend API key.");

  const base = (config.EMAIL_API_BASE_URL ?? RESEND_API_BASE_URL).replace(/\/+$/, "");
  const from = formatMailbox(config.EMAIL_FROM, config.EMAIL_FROM_NAME);
  const secrets = [apiKey];

  return {
    async send(message) {
      // Resend takes extra header lines as `headers` (https://resend.com/docs/api-reference/emails/send-email).
      const body = JSON.stringify({ from, to: [message.to], subject: message.subject, text: message.text, html: message.html, headers: message.headers });
      let res: Response;
      try {
        res = await fetchFn(`${base}/emails`, {
          method: "POST",
          headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", Accept: "application/json" },
          body,
          signal: AbortSignal.timeout(EMAIL_API_TIMEOUT_MS),
        });
      } catch (err) {
        const name = err instanceof Error ? err.name : "Error";
        throw sendError(`the email API could not be reached (${name})`);
      }
      if (res.ok) {
        await res.body?.cancel();
        return;
      }
      throw sendError(`the email API answered HTTP ${res.status}${await errorDetail(res, secrets)}`, res.status);
    },
  };
}

/** `"Display Name" <address>` with the name as an RFC 5322 quoted-string, or the bare address. */
export function formatMailbox(address: string, name: string | undefined): string {
  if (!name) return address;
  return `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}" <${address}>`;
}

function failingMailer(message: string): Mailer {
  return {
    async send() {
      throw new Error(message);
    },
  };
}

function sendError(reason: string, status?: number): Error {
  const error = new Error(`Email could not be sent: ${reason}`) as Error & { status?: number };
  error.name = "MailSendError";
  if (status !== undefined) error.status = status;
  return error;
}

/** Resend answers `{statusCode, name, message}`; keep name and message, scrubbed, for the operator. */
async function errorDetail(res: Response, secrets: ReadonlyArray<string>): Promise<string> {
  let text: string;
  try {
    text = await res.text();
  } catch {
    return "";
  }
  try {
    const parsed = JSON.parse(text) as { name?: unknown; message?: unknown };
    const parts = [parsed.name, parsed.message].filter((p): p is string => typeof p === "string" && p !== "");
    return parts.length > 0 ? `: ${scrub(parts.join(": "), secrets)}` : "";
  } catch {
    return "";
  }
}
