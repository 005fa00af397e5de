/**
 * One email to one recipient. `text` is always sent; `html` is an optional alternative; `headers` adds header
 * lines (the digest's List-Unsubscribe and List-Unsubscribe-Post, RFC 2369 and RFC 8058).
 */
export type MailMessage = { to: string; subject: string; text: string; html?: string; headers?: Record<string, string> };

/** A message before it is addressed: what the templates build. */
export type MailContent = Omit<MailMessage, "to">;

/**
 * Sends one message or throws an Error. The error's message never carries SMTP_PASS, the API key or
 * the message body (which holds single-use tokens), so callers may log it.
 */
export type Mailer = { send(message: MailMessage): Promise<void> };
