// Outbound email: verification and password-reset messages (SPEC.md section 1, the SMTP_/EMAIL_
// variables). Email is optional: both factories return undefined when `config.features.email` is off.
// Node sends over SMTP (smtp.ts, nodemailer loaded on first use); Workers send through Resend's HTTP API
// (edge.ts). Neither logs, and their errors never carry SMTP_PASS or a message body.
export type { MailContent, MailMessage, Mailer } from "./types.ts";
export { createNodeMailer, SMTP_TIMEOUTS_MS, type NodeMailerOptions } from "./smtp.ts";
export {
  createEdgeMailer,
  EMAIL_API_TIMEOUT_MS,
  formatMailbox,
  isResendHost,
  RESEND_API_BASE_URL,
  RESEND_SMTP_HOST,
  SMTP_ON_EDGE_MESSAGE,
} from "./edge.ts";
export { passwordResetEmail, verificationEmail } from "./messages.ts";
