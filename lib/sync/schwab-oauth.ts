// Connecting Schwab (docs/imports.md, "Broker sync"): Schwab's Trader API takes no key a trader could paste;
// the trader signs in at Schwab through the operator's app (OAuth 2.0 authorization code, RFC 6749 section
// 4.1, with PKCE, RFC 7636, S256) and the callback keeps the tokens as the connection's sealed secret.
// - start: a state (random, single use, ten minutes) and a PKCE verifier kept with the account and the user;
//   the answer is Schwab's authorize URL to send the browser to.
// - callback: the state must be one this same user started (a link from someone else's sign-in is refused),
//   Schwab's code is exchanged with the verifier, the account chosen (the only one, or the one whose last four
//   digits the trader gave) and the connection stored. Every outcome is a redirect to the account page with
//   what happened, never an error page.
import { sql } from "drizzle-orm";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { accountsOf, baseOf, tokenRequest } from "./adapters/schwab.ts";
import { SyncError } from "./errors.ts";
import { storeConnection } from "./sync.ts";

/** How long a sign-in may take, from start to callback. */
export const FLOW_MINUTES = 10;

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The callback Schwab sends the browser back to: the app's registered one. */
export function redirectUri(config: Deps["config"]): string | null {
  return config.SCHWAB_REDIRECT_URI ?? (config.WEB_BASE_URL ? `${config.WEB_BASE_URL}/api/accounts/broker-oauth/schwab/callback` : null);
}

/** GET start: Schwab's sign-in URL for this account (the state and verifier kept for the callback). */
export async function startSchwab(deps: Pick<Deps, "db" | "config">, user: AuthUser, accountId: string, choice: { startDate?: string; accountTail?: string }): Promise<string> {
  await requireOwnAccount(deps, user, accountId);
  const callback = redirectUri(deps.config);
  if (!deps.config.SCHWAB_CLIENT_ID || !deps.config.SCHWAB_CLIENT_SECRET || !callback) {
    throw new AppError("CONFLICT", "Schwab is not set up on this instance: its operator registers a Schwab app and sets SCHWAB_CLIENT_ID and SCHWAB_CLIENT_SECRET.");
  }
  const state = base64url(crypto.getRandomValues(new Uint8Array(24)));
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(48)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  await deps.db.execute(sql`delete from broker_oauth_flows where created_at < now() - make_interval(mins => ${FLOW_MINUTES})`);
  await deps.db.execute(sql`insert into broker_oauth_flows (state, user_id, account_id, verifier, start_date, account_tail)
    values (${state}, ${user.id}::uuid, ${accountId}::uuid, ${verifier}, ${choice.startDate ?? null}::date, ${choice.accountTail ?? null})`);
  const query = new URLSearchParams({ response_type: "code", client_id: deps.config.SCHWAB_CLIENT_ID, redirect_uri: callback, scope: "api", state, code_challenge: challenge, code_challenge_method: "S256" });
  return `${baseOf(deps)}/v1/oauth/authorize?${query}`;
}

/** Where the browser goes after the callback: the account page (or the accounts list) saying what happened. */
function back(deps: Pick<Deps, "config">, accountId: string | null, outcome: { connected: true } | { error: string }): string {
  const path = accountId ? `/accounts/${accountId}` : "/accounts";
  const query = "error" in outcome ? `brokerError=${encodeURIComponent(outcome.error)}` : "broker=connected";
  return `${deps.config.WEB_BASE_URL ?? ""}${path}?${query}`;
}

/** GET callback: the connection stored from Schwab's code, and where to send the browser. Never throws for Schwab's or the trader's doing. */
export async function finishSchwab(deps: Pick<Deps, "db" | "config" | "fetch" | "now">, user: AuthUser, query: { code?: string; state?: string; error?: string }): Promise<string> {
  const [flow] = query.state
    ? rowsOf<{ account_id: string; verifier: string; start_date: string | null; account_tail: string | null }>(
        await deps.db.execute(sql`delete from broker_oauth_flows where state = ${query.state} and user_id = ${user.id}::uuid
          and created_at > now() - make_interval(mins => ${FLOW_MINUTES})
          returning account_id::text, verifier, to_char(start_date, 'YYYY-MM-DD') as start_date, account_tail`),
      )
    : [];
  if (!flow) return back(deps, null, { error: "This Schwab sign-in is not yours or has expired (10 minutes): connect again from the account page." });
  if (query.error || !query.code) return back(deps, flow.account_id, { error: `Schwab did not let the journal in (${(query.error ?? "no code").slice(0, 60)}): connect again to retry.` });
  try {
    const now = deps.now().toISOString();
    const tokens = await tokenRequest(deps, { grant_type: "authorization_code", code: query.code, redirect_uri: redirectUri(deps.config)!, code_verifier: flow.verifier }, now);
    const accounts = await accountsOf(deps, tokens.accessToken);
    const chosen = flow.account_tail ? accounts.filter((a) => a.tail === flow.account_tail) : accounts;
    if (chosen.length !== 1) {
      const tails = accounts.map((a) => `…${a.tail}`).join(", ") || "none";
      return back(deps, flow.account_id, { error: flow.account_tail ? `The Schwab sign-in opens ${tails}, not …${flow.account_tail}.` : `The Schwab sign-in opens several accounts (${tails}): give the last four digits of the one to sync and connect again.` });
    }
    await storeConnection(deps, user.id, flow.account_id, "schwab", { secret: tokens, settings: { accountTail: chosen[0]!.tail, accountHash: chosen[0]!.hash } }, flow.start_date, true);
    return back(deps, flow.account_id, { connected: true });
  } catch (err) {
    if (err instanceof SyncError) return back(deps, flow.account_id, { error: err.message });
    throw err;
  }
}
