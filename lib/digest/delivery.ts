// The weekly digest's delivery (docs/digest.md): the jobs (the Node scheduler and the jobs Worker's cron) send
// each user's digest once per week, in the user's zone at their hour.
// - Due (for a verified address only): the latest send moment (weekday, hour, zone) has passed, less than a day ago, and the week has no
//   delivery that is sent, failed for good, or held by a live run. A digest switched on after its hour that
//   day goes out at the next run; one more than a day late waits for the next week.
// - Exactly once: a run claims a user's week by inserting its row (digest_sends; the primary key is the user
//   and the send day), so of any number of overlapping or retried runs one sends. A run that died holding a
//   claim leaves it to be taken again after CLAIM_MINUTES.
// - Failures: the mail server refusing the address for good (a bounce at send: SMTP 5xx, the email API's
//   4xx) fails the week at once; a passing failure is tried again after RETRY_MINUTES, ATTEMPTS times in all.
//   Email not configured fails the week too. Every failure is logged for the operator (no address, no body)
//   and counted in GET /api/admin/stats; nothing is retried forever.
// - Unsubscribe: a signed token of the user (HMAC under SESSION_SECRET) in the List-Unsubscribe header
//   (RFC 2369) with List-Unsubscribe-Post (RFC 8058, one click), and in the email's foot.
import { createHmac, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import type { ModelProvider } from "../providers/providers.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { digestFigures, digestUser, weekBefore } from "./digest.ts";
import { READING_TIMEOUT_MS, writeReading } from "./reading.ts";
import { digestEmail } from "./render.ts";
import { scrub } from "../email/redact.ts";

export const CLAIM_MINUTES = 15;
export const RETRY_MINUTES = 30;
export const ATTEMPTS = 3;
/**
 * Users claimed per statement; each batch's digests are built and sent CONCURRENCY at a time. Their reads queue on
 * the shared pool (never a connection each); the concurrency hides the mail server's round trips (about 100 ms
 * a message over SMTP here), which dominate a digest's time.
 */
const BATCH = 50;
const CONCURRENCY = 16;

export type SendOptions = {
  /** Stop claiming after this long; the next run goes on (a cron Worker has minutes, not hours). */
  budgetMs?: number;
  readingTimeoutMs?: number;
};

/** The one-click unsubscribe token of a user: their id and an HMAC of it. */
export function unsubscribeToken(config: { SESSION_SECRET: string }, userId: string): string {
  return `${userId}.${mac(config.SESSION_SECRET, userId)}`;
}

function mac(secret: string, userId: string): string {
  return createHmac("sha256", `digest-unsubscribe:${secret}`).update(userId).digest("base64url").slice(0, 32);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * POST /api/digest/unsubscribe?token=: the weekly digest off (the schedule kept, so turning it on again keeps
 * the day and hour). A token of the wrong shape is 400; one whose signature does not hold (altered, or for a
 * user who is gone) is 404; nothing changes either way. Saying it twice is fine.
 */
export async function unsubscribe(deps: Pick<Deps, "db" | "config">, token: string): Promise<void> {
  const [userId, given] = token.split(".");
  if (!userId || !given || !UUID.test(userId) || !/^[A-Za-z0-9_-]{32}$/.test(given)) {
    throw new AppError("VALIDATION_ERROR", "This unsubscribe link is not whole: copy all of it from the email.", { fields: [{ path: "token", message: "must be the token of a digest's unsubscribe link" }] });
  }
  const expected = Buffer.from(mac(deps.config.SESSION_SECRET, userId));
  if (!timingSafeEqual(expected, Buffer.from(given))) throw new AppError("NOT_FOUND", "This unsubscribe link is not one of ours.");
  const done = rowsOf(
    await deps.db.execute(sql`update user_settings set digest = jsonb_set(digest, '{weekly}', 'false'::jsonb), updated_at = now()
      where user_id = ${userId}::uuid and digest is not null returning user_id`),
  );
  if (!done.length) {
    const known = rowsOf(await deps.db.execute(sql`select 1 from users where id = ${userId}::uuid`));
    if (!known.length) throw new AppError("NOT_FOUND", "This unsubscribe link is not one of ours.");
  }
}

type Due = { user_id: string; email: string; week: string; zone: string; reading: ModelProvider | null; wash_watch: boolean };

/**
 * Claims up to `limit` due weeks at `now` (one statement: the rows it inserts or takes over are this run's).
 * Exported for the benchmark.
 */
export async function claimDue(deps: Pick<Deps, "db">, now: Date, limit = BATCH): Promise<Due[]> {
  const at = now.toISOString();
  /** How long a claim or a passing failure holds a week before another run may take it. */
  const held = sql.raw(`case when x.status = 'retry' then interval '${RETRY_MINUTES} minutes' else interval '${CLAIM_MINUTES} minutes' end`);
  return rowsOf<Due>(
    await deps.db.execute(sql`with s as (
        select st.user_id, (st.digest->>'weekday')::int as wd, (st.digest->>'hour')::int as h, st.digest->>'zone' as z,
          nullif(st.digest->>'reading', '') as reading, coalesce((st.digest->>'washWatch')::boolean, false) as wash_watch,
          ${at}::timestamptz at time zone (st.digest->>'zone') as local
        from user_settings st join users u on u.id = st.user_id
        where st.digest is not null and (st.digest->>'weekly')::boolean and u.email_verified
      ), d as (
        select *, local::date - ((extract(dow from local)::int - wd + 7) % 7) as day0 from s
      ), w as (
        select *, case when day0 = local::date and extract(hour from local) < h then day0 - 7 else day0 end as week from d
      ), due as (
        select w.user_id, w.week, w.z, w.reading, w.wash_watch from w
        where ((w.week + make_interval(hours => w.h)) at time zone w.z) <= ${at}::timestamptz
          and ((w.week + make_interval(hours => w.h)) at time zone w.z) > ${at}::timestamptz - interval '1 day'
          and not exists (select 1 from digest_sends x where x.user_id = w.user_id and x.week = w.week
            and (x.status in ('sent', 'failed') or x.claimed_at > ${at}::timestamptz - ${held}))
        order by w.week, w.user_id
        limit ${limit}
      ), claimed as (
        insert into digest_sends as x (user_id, week, status, attempts, claimed_at)
        select user_id, week, 'sending', 1, ${at}::timestamptz from due
        on conflict (user_id, week) do update set status = 'sending', attempts = x.attempts + 1, claimed_at = excluded.claimed_at, error = null
          where x.status in ('sending', 'retry')
            and x.claimed_at <= ${at}::timestamptz - ${held}
        returning x.user_id, x.week
      )
      select c.user_id::text as user_id, u.email, to_char(c.week, 'YYYY-MM-DD') as week, due.z as zone, due.reading, due.wash_watch
      from claimed c join due on due.user_id = c.user_id and due.week = c.week join users u on u.id = c.user_id`),
  );
}

/** A send failure the server meant for good: SMTP 5xx (a refused address), the email API's 4xx other than 429. */
function permanent(err: unknown): boolean {
  const e = err as { permanent?: boolean; responseCode?: number; status?: number };
  if (e?.permanent === true) return true;
  if (typeof e?.responseCode === "number") return e.responseCode >= 500;
  if (typeof e?.status === "number") return e.status >= 400 && e.status < 500 && e.status !== 429;
  return false;
}

async function finish(deps: Pick<Deps, "db">, due: Due, status: "sent" | "retry" | "failed", error: string | null) {
  await deps.db.execute(sql`update digest_sends set
      status = case when ${status} = 'retry' and attempts >= ${ATTEMPTS} then 'failed' else ${status} end,
      sent_at = case when ${status} = 'sent' then now() else sent_at end, error = ${error}
    where user_id = ${due.user_id}::uuid and week = ${due.week}::date`);
}

/** Builds and sends one claimed digest. */
async function deliver(deps: Deps, due: Due, readingTimeoutMs: number): Promise<"sent" | "failed" | "retry"> {
  const web = deps.config.WEB_BASE_URL;
  if (!deps.mailer || !web) {
    await finish(deps, due, "failed", "email is not configured");
    return "failed";
  }
  try {
    const user = await digestUser(deps, due.user_id);
    const figures = await digestFigures(deps, user, weekBefore(due.week, due.zone), { washWatch: due.wash_watch });
    const reading = due.reading ? await writeReading(deps, user, due.reading, figures, readingTimeoutMs) : { text: null, skipped: "not asked for" };
    const token = unsubscribeToken(deps.config, user.id);
    const content = digestEmail(figures, reading, web, token);
    await deps.mailer.send({
      to: due.email,
      ...content,
      headers: { "List-Unsubscribe": `<${web}/api/digest/unsubscribe?token=${token}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
    await finish(deps, due, "sent", null);
    return "sent";
  } catch (err) {
    // A server's refusal often quotes the address: kept and logged without it (the mailers' own scrubbing).
    const message = scrub(err instanceof Error ? err.message : String(err), []);
    const status = permanent(err) ? "failed" : "retry";
    await finish(deps, due, status, message);
    deps.log.error("digest not sent", { week: due.week, outcome: status, error: message });
    return status;
  }
}

/** The job: every due digest, batch by batch, until none is due or the budget is spent. */
export async function sendDueDigests(deps: Deps, options: SendOptions = {}): Promise<{ sent: number; failed: number; retry: number }> {
  const started = Date.now();
  const budget = options.budgetMs ?? 4 * 60_000;
  const outcome = { sent: 0, failed: 0, retry: 0 };
  for (;;) {
    const batch = await claimDue(deps, deps.now());
    if (!batch.length) break;
    if (!deps.mailer) deps.log.warn("weekly digests are due but email is not configured (SMTP_HOST, EMAIL_FROM, WEB_BASE_URL)", { due: batch.length });
    for (let i = 0; i < batch.length; i += CONCURRENCY) {
      for (const result of await Promise.all(batch.slice(i, i + CONCURRENCY).map((due) => deliver(deps, due, options.readingTimeoutMs ?? READING_TIMEOUT_MS)))) outcome[result] += 1;
    }
    if (Date.now() - started > budget || batch.length < BATCH) break;
  }
  return outcome;
}
