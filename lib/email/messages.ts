// The emails the service sends. Plain text is the primary part (every client shows it, and the link
// is the whole point); the HTML part is a minimal rendering of the same words.
import type { Config } from "../config/index.ts";
import type { MailContent } from "./types.ts";

export const PRODUCT = "Trading Journal";

// The stated expiries match the token lifetimes of lib/auth/email-tokens.ts (a test checks they agree).

export function verificationEmail(config: Config, token: string): MailContent {
  const link = webLink(config, "/verify-email", token);
  const paragraphs = [
    `Please confirm the email address of your ${PRODUCT} account by opening this link:`,
    link,
    "The link expires in 24 hours.",
    `If you did not create a ${PRODUCT} account, you can ignore this email.`,
  ];
  return render("Confirm your email address", paragraphs, link);
}

export function passwordResetEmail(config: Config, token: string): MailContent {
  const link = webLink(config, "/reset-password", token);
  const paragraphs = [
    `Someone asked to reset the password of your ${PRODUCT} account. To choose a new password, open this link:`,
    link,
    "The link expires in 1 hour.",
    "If you did not ask for this, ignore this email: your password stays as it is.",
  ];
  return render(`Reset your ${PRODUCT} password`, paragraphs, link);
}

/** After the sign-in lockout (lib/auth/lockout.ts): the account's owner is told, and pointed at a reset. */
export function lockoutEmail(config: Config, failures: number, minutes: number): MailContent {
  if (!config.WEB_BASE_URL) throw new Error("Email links need WEB_BASE_URL; email is not configured.");
  const link = `${config.WEB_BASE_URL}/forgot-password`;
  const paragraphs = [
    `Sign-in to your ${PRODUCT} account was locked for ${minutes} minutes after ${failures} failed attempts with a wrong password.`,
    "If that was you, wait and try again. If it was not, someone may be guessing your password: choose a new one here.",
    link,
    "Your account itself is safe: the lock only stops sign-in attempts, and ends by itself.",
  ];
  return render(`Sign-in to your ${PRODUCT} account was locked`, paragraphs, link);
}

/** A sign-in from a browser the account had not signed in from (lib/auth/devices.ts). */
export function newDeviceEmail(config: Config, device: string, at: Date): MailContent {
  if (!config.WEB_BASE_URL) throw new Error("Email links need WEB_BASE_URL; email is not configured.");
  const link = `${config.WEB_BASE_URL}/settings/sessions`;
  const when = `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const paragraphs = [
    `Someone signed in to your ${PRODUCT} account from a device it had not been used on: ${device}, at ${when}.`,
    "If that was you, there is nothing to do. If it was not, change your password now (it signs out every other session) and check your sessions here:",
    link,
  ];
  return render(`New sign-in to your ${PRODUCT} account`, paragraphs, link);
}

/** A personal access token was made (lib/auth/tokens.ts): which, what it may do, and where to revoke it. */
export function newTokenEmail(config: Config, token: { name: string; scopes: readonly string[]; expiresAt: string }, at: Date): MailContent {
  if (!config.WEB_BASE_URL) throw new Error("Email links need WEB_BASE_URL; email is not configured.");
  const link = `${config.WEB_BASE_URL}/settings/account`;
  const when = `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const paragraphs = [
    `An access token named "${token.name}" was made for your ${PRODUCT} account at ${when}. It may: ${token.scopes.join(", ")}; it expires on ${token.expiresAt.slice(0, 10)}.`,
    "If that was you, there is nothing to do. If it was not, change your password now (that revokes every token and signs out every other session), and check your tokens here:",
    link,
  ];
  return render(`New access token on your ${PRODUCT} account`, paragraphs, link);
}

/** A broker connection the broker stopped accepting (lib/sync/sync.ts): why, and where to give a new token. */
/** A broker connection broke (its credentials refused): `broker` is the provider's name, `mend` what to save again. */
export function brokerBrokenEmail(config: Config, accountId: string, accountName: string, reason: string, broker = "Interactive Brokers", mend = "a new Flex Web Service token"): MailContent {
  if (!config.WEB_BASE_URL) throw new Error("Email links need WEB_BASE_URL; email is not configured.");
  const link = `${config.WEB_BASE_URL}/accounts/${accountId}`;
  const paragraphs = [
    `Your ${PRODUCT} account "${accountName}" stopped syncing from ${broker}. ${reason}`,
    `No trades were imported, and syncing is paused until you save ${mend} on the account's page:`,
    link,
  ];
  return render(`${broker} sync stopped for "${accountName}"`, paragraphs, link);
}

function webLink(config: Config, path: string, token: string): string {
  // WEB_BASE_URL is parsed as an origin (no path, no trailing slash).
  if (!config.WEB_BASE_URL) throw new Error("Email links need WEB_BASE_URL; email is not configured.");
  return `${config.WEB_BASE_URL}${path}?token=${encodeURIComponent(token)}`;
}

function render(subject: string, paragraphs: string[], link: string): MailContent {
  const text = `${paragraphs.join("\n\n")}\n`;
  const html =
    "<!doctype html><html><body>" +
    paragraphs
      .map((p) => (p === link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : `<p>${escapeHtml(p)}</p>`))
      .join("") +
    "</body></html>";
  return { subject, text, html };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An invitation to read a trader's journal as their mentor (lib/sharing/mentors.ts): who, what, until when. */
export function mentorInvitationEmail(config: Config, ownerEmail: string, scopes: readonly string[], expiresAt: string | null): MailContent {
  if (!config.WEB_BASE_URL) throw new Error("Email links need WEB_BASE_URL; email is not configured.");
  const link = `${config.WEB_BASE_URL}/mentees`;
  const paragraphs = [
    `${ownerEmail} invited you to read their ${PRODUCT} journal as their mentor (${scopes.join(", ")})${expiresAt ? ` until ${expiresAt.slice(0, 10)}` : ""}.`,
    "Sign in (or register) with this email address and accept the invitation here:",
    link,
  ];
  return render(`An invitation to mentor on ${PRODUCT}`, paragraphs, link);
}
