// Starting a session on a response, shared by the groups that sign a user in (auth: password and code;
// passkeys: a passkey), and the WebAuthn relying party of a request.
import type { Context } from "hono";
import { recordSignInDevice } from "../lib/auth/devices.ts";
import type { RelyingParty } from "../lib/auth/passkeys.ts";
import { createSession } from "../lib/auth/session.ts";
import { csrfTokenFor, readDeviceCookie, setDeviceCookie, setSessionCookie } from "../lib/http/auth.ts";
import type { AppEnv } from "../lib/http/index.ts";

/**
 * The WebAuthn relying party of this request: WEB_BASE_URL's host when set (the browser app's origin), else the
 * host the request came to, over http or https (a proxy in front may end TLS).
 */
export function relyingParty(c: Context<AppEnv>): RelyingParty {
  const base = c.var.deps.config.WEB_BASE_URL;
  if (base) {
    const url = new URL(base);
    return { rpID: url.hostname, origins: [url.origin] };
  }
  const url = new URL(c.req.url);
  return { rpID: url.hostname, origins: [`http://${url.host}`, `https://${url.host}`] };
}

/**
 * Signs the user in on this response: a new session (never a reused id) and its cookie, and the device
 * recorded (a sign-in from a new one mails the owner, not a sign-up: lib/auth/devices.ts).
 */
export async function startSession(c: Context<AppEnv>, user: { id: string; email: string }, kind: "sign-up" | "sign-in") {
  const userAgent = c.req.header("User-Agent");
  const { token, session } = await createSession(c.var.deps, user.id, userAgent);
  await setSessionCookie(c, token, session);
  setDeviceCookie(c, await recordSignInDevice(c.var.deps, user, readDeviceCookie(c), userAgent, kind === "sign-in"));
  return c.var.deps.config.features.cors ? { csrfToken: csrfTokenFor(c.var.deps.config, session.id) } : {};
}

