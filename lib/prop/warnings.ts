// Prop-firm warnings (issue 56; docs/prop-firms.md, "Warnings"): the trader sets thresholds on an evaluation (the
// distance to the floor, the day's loss left under the daily loss limit), and after a fill brings the status under
// one, the journal says so in the app (GET /api/accounts/:id/evaluation/warnings, the account's panel) and, when
// asked, by email: once per kind and trading day (the firm's day, from its own start and zone). The `prop-warnings`
// job looks after every fill written (the evaluation's state_v moved since it last looked), within a minute.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { escapeHtml, PRODUCT } from "../email/messages.ts";
import { scrub } from "../email/redact.ts";
import type { MailContent } from "../email/types.ts";
import { DecimalStringSchema, formatDecimal, fromUnits, toUnits } from "../money.ts";
import { getEvaluation } from "./evaluations.ts";
import { tradingDay } from "./engine.ts";

const threshold = () => z.nullable(DecimalStringSchema.check(z.refine((v) => Number(v) > 0, "must be above 0")));

export const WarningsSchema = z.strictObject({
  /** Warn when the balance (or equity, for the intraday modes) is less than this above the floor. */
  floorDistance: threshold(),
  /** Warn when the day's loss left under the daily loss limit is less than this. */
  dailyLossLeft: threshold(),
  email: z.boolean("must be true or false"),
});
export type WarningsBody = z.infer<typeof WarningsSchema>;

export type WarningKind = "floor" | "daily_loss";
type Given = { kind: WarningKind; day: string; value: string; threshold: string; at: string; emailed: boolean };

const owned = async (deps: Pick<Deps, "db">, user: AuthUser, accountId: string) => {
  const [row] = rowsOf<{ mine: boolean; has: boolean; daily: string | null; floor: string | null; warn_daily: string | null; email: boolean }>(
    await deps.db.execute(sql`select a.user_id = ${user.id}::uuid as mine, e.account_id is not null as has, e.rules->>'dailyLossLimit' as daily,
        e.warn_floor::text as floor, e.warn_daily::text as warn_daily, coalesce(e.warn_email, false) as email
      from accounts a left join prop_evaluations e on e.account_id = a.id where a.id = ${accountId}::uuid`),
  );
  if (!row?.mine) throw new AppError("NOT_FOUND", "No such account.");
  if (!row.has) throw new AppError("NOT_FOUND", "This account has no evaluation.");
  return row;
};

/** GET /api/accounts/:id/evaluation/warnings: the thresholds, and the warnings of the last 7 days, newest first. */
export async function getWarnings(deps: Pick<Deps, "db" | "now">, user: AuthUser, accountId: string) {
  const row = await owned(deps, user, accountId);
  const given = rowsOf<Given>(
    await deps.db.execute(sql`select kind, to_char(day, 'YYYY-MM-DD') as day, value::text as value, threshold::text as threshold,
        to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, emailed
      from prop_warnings where account_id = ${accountId}::uuid and day >= ${deps.now().toISOString()}::date - 7 order by day desc, kind`),
  );
  return {
    warnings: {
      floorDistance: row.floor === null ? null : formatDecimal(row.floor),
      dailyLossLeft: row.warn_daily === null ? null : formatDecimal(row.warn_daily),
      email: row.email,
      given: given.map((g) => ({ ...g, value: formatDecimal(g.value), threshold: formatDecimal(g.threshold) })),
    },
  };
}

/** PUT /api/accounts/:id/evaluation/warnings: the thresholds (null: none of that kind). */
export async function putWarnings(deps: Pick<Deps, "db" | "now">, user: AuthUser, accountId: string, body: WarningsBody) {
  const row = await owned(deps, user, accountId);
  if (body.dailyLossLeft !== null && row.daily === null) {
    throw new AppError("VALIDATION_ERROR", "This evaluation has no daily loss limit to warn about.", { fields: [{ path: "dailyLossLeft", message: "must be null: the evaluation has no daily loss limit" }] });
  }
  // warned_v back to -1: the next run of the job looks at the status now, under the new thresholds.
  await deps.db.execute(sql`update prop_evaluations set warn_floor = ${body.floorDistance}::numeric, warn_daily = ${body.dailyLossLeft}::numeric,
      warn_email = ${body.email}, warned_v = -1, updated_at = now()
    where account_id = ${accountId}::uuid`);
  return getWarnings(deps, user, accountId);
}

function warningEmail(web: string, accountId: string, accountName: string, firm: string, kind: WarningKind, value: string, limit: string, currency: string): MailContent {
  const link = `${web}/accounts/${accountId}`;
  const what =
    kind === "floor"
      ? `is ${value} ${currency} above its drawdown floor, under the ${limit} ${currency} you set`
      : `has ${value} ${currency} of today's loss limit left, under the ${limit} ${currency} you set`;
  const text = `Your ${firm} account "${accountName}" ${what}.\n\nThe status after your last fill, and the rules: ${link}\n\nYou get at most one such email per kind and trading day. Change the thresholds on the account's page.\n`;
  return { subject: `${firm} "${accountName}": ${kind === "floor" ? "near the drawdown floor" : "near the daily loss limit"}`, text, html: `<!doctype html><html><body><p>${escapeHtml(`Your ${firm} account "${accountName}" ${what}.`)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>At most one such email per kind and trading day. Change the thresholds on the account's page (${escapeHtml(PRODUCT)}).</p></body></html>` };
}

/** The job: the evaluations with thresholds whose account had a fill written since they were last looked at. */
export async function checkWarnings(deps: Deps, limit = 200): Promise<number> {
  const due = rowsOf<{ account_id: string; user_id: string; email: string; email_verified: boolean; name: string; currency: string; firm: string; v: string; floor: string | null; warn_daily: string | null; warn_email: boolean; daily: string | null; day_starts: string; zone: string }>(
    await deps.db.execute(sql`select e.account_id::text as account_id, e.user_id::text as user_id, u.email, u.email_verified, a.name, a.currency, e.firm, e.state_v::text as v,
        e.warn_floor::text as floor, e.warn_daily::text as warn_daily, e.warn_email, e.rules->>'dailyLossLimit' as daily, e.rules->>'dayStartsAt' as day_starts, e.rules->>'dayZone' as zone
      from prop_evaluations e join accounts a on a.id = e.account_id join users u on u.id = e.user_id
      where (e.warn_floor is not null or e.warn_daily is not null) and e.state_v <> e.warned_v
      order by e.updated_at limit ${limit}`),
  );
  let given = 0;
  for (const d of due) {
    // Looked at this state_v: a fill written meanwhile raises it again, and the next run looks again.
    await deps.db.execute(sql`update prop_evaluations set warned_v = ${d.v}::bigint where account_id = ${d.account_id}::uuid`);
    const user: AuthUser = { id: d.user_id, email: d.email, emailVerified: d.email_verified, isAdmin: false, plan: "free" };
    const { status } = await getEvaluation(deps, user, d.account_id);
    if (status.state !== "active") continue;
    const day = tradingDay(deps.now().getTime(), d.day_starts, d.zone);
    const crossed: Array<{ kind: WarningKind; value: string; threshold: string }> = [];
    if (d.floor !== null && toUnits(status.distanceToFloor) < toUnits(d.floor)) crossed.push({ kind: "floor", value: status.distanceToFloor, threshold: formatDecimal(d.floor) });
    if (d.warn_daily !== null && d.daily !== null) {
      const left = fromUnits(toUnits(d.daily) - toUnits(status.dailyLossUsed));
      if (toUnits(left) < toUnits(d.warn_daily)) crossed.push({ kind: "daily_loss", value: left, threshold: formatDecimal(d.warn_daily) });
    }
    for (const c of crossed) {
      const [inserted] = rowsOf(
        await deps.db.execute(sql`insert into prop_warnings (account_id, day, kind, value, threshold, at)
          values (${d.account_id}::uuid, ${day}::date, ${c.kind}, ${c.value}::numeric, ${c.threshold}::numeric, ${deps.now().toISOString()}::timestamptz)
          on conflict do nothing returning kind`),
      );
      if (!inserted) continue;
      given++;
      if (d.warn_email && d.email_verified && deps.mailer && deps.config.WEB_BASE_URL) {
        try {
          await deps.mailer.send({ to: d.email, ...warningEmail(deps.config.WEB_BASE_URL, d.account_id, d.name, d.firm, c.kind, c.value, c.threshold, d.currency) });
          await deps.db.execute(sql`update prop_warnings set emailed = true where account_id = ${d.account_id}::uuid and day = ${day}::date and kind = ${c.kind}`);
        } catch (err) {
          // The in-app notice stands; the email is not tried again (once a day means once).
          deps.log.error("prop warning email not sent", { error: scrub(err instanceof Error ? err.message : String(err), []) });
        }
      }
    }
  }
  return given;
}
