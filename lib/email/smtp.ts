// The Node mailer: SMTP through nodemailer, configured from SMTP_* and EMAIL_* (SPEC.md section 1).
import type { Config } from "../config/index.ts";
import { scrub } from "./redact.ts";
import type { Mailer } from "./types.ts";

type Nodemailer = typeof import("nodemailer");

// A computed specifier: esbuild (wrangler) bundles `import("literal")`, and Workers have no SMTP
// sockets to give nodemailer anyway. Only the Node entrypoint ever calls createNodeMailer.
const NODEMAILER_MODULE = ["node", "mailer"].join("");

/** Connect, greeting and idle-socket limits, so a dead SMTP server fails a send instead of hanging it. */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 15_000 } as const;

export type NodeMailerOptions = {
  /**
   * Verify the server's TLS certificate (default true). Tests set false to accept the self-signed
   * certificate of the in-process SMTP server; production code never passes this.
   */
  tlsRejectUnauthorized?: boolean;
};

/** undefined when email is off (the SMTP_HOST / EMAIL_FROM / WEB_BASE_URL trio is not set). */
export async function createNodeMailer(config: Config, options: NodeMailerOptions = {}): Promise<Mailer | undefined> {
  if (!config.features.email) return undefined;
  const host = config.SMTP_HOST;
  const fromAddress = config.EMAIL_FROM;
  if (!host || !fromAddress) return undefined;

  const nodemailer = (await import(/* @vite-ignore */ NODEMAILER_MODULE)) as Nodemailer;
  const mode = config.SMTP_TLS_MODE;
  const transport = nodemailer.createTransport({
    host,
    port: config.SMTP_PORT,
    // implicit: TLS from the first byte. starttls: upgrade or fail, never send in clear.
    // none: plain text, even when the server offers STARTTLS.
    secure: mode === "implicit",
    requireTLS: mode === "starttls",
    ignoreTLS: mode === "none",
    opportunisticTLS: false,
    auth: config.SMTP_USER && config.SMTP_PASS ? { user: config.SMTP_USER, pass: config.SMTP_PASS } : undefined,
    connectionTimeout: SMTP_TIMEOUTS_MS.connection,
    greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
    socketTimeout: SMTP_TIMEOUTS_MS.socket,
    tls: { rejectUnauthorized: options.tlsRejectUnauthorized ?? true, minVersion: "TLSv1.2" },
    logger: false,
    debug: false,
    // Messages are built from strings only; never let a field read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  // An address object, so nodemailer quotes or encodes the display name (commas, quotes, non-ASCII).
  const from = config.EMAIL_FROM_NAME ? { name: config.EMAIL_FROM_NAME, address: fromAddress } : fromAddress;
  const secrets = [config.SMTP_PASS];

  return {
    async send(message) {
      try {
        await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html, headers: message.headers });
      } catch (err) {
        throw smtpError(err, secrets);
      }
    },
  };
}

/** A fresh Error from nodemailer's: its code and SMTP reply code, a scrubbed reason, no cause chain. */
function smtpError(err: unknown, secrets: ReadonlyArray<string | undefined>): Error {
  const e = (err ?? {}) as { message?: unknown; code?: unknown; responseCode?: unknown; command?: unknown; permanent?: unknown };
  const code = typeof e.code === "string" ? e.code : undefined;
  const reason = typeof e.message === "string" ? scrub(e.message, secrets) : "unknown error";
  const error = new Error(`Email could not be sent over SMTP${code ? ` (${code})` : ""}: ${reason}`) as Error & {
    code?: string;
    responseCode?: number;
    permanent?: boolean;
  };
  error.name = "MailSendError";
  if (code) error.code = code;
  if (typeof e.responseCode === "number") error.responseCode = e.responseCode;
  if (typeof e.permanent === "boolean") error.permanent = e.permanent;
  return error;
}
