// The daily journal (docs/discipline.md): one entry per account and trading day, the day on the account's
// clock (the calendar's day): the plan written before the open, the review after the close, the mood (1-5)
// and the day's tags. A write sets the fields it names and keeps the others (a plan typed in one tab and a
// review in another do not erase each other); an entry left with nothing in it (and no image) is removed. Its
// images (functions/images.ts) are deleted with it only when the trader deletes the entry.
import { canonicalTags } from "../tags/tags.ts";
import { sql } from "drizzle-orm";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { MAX_DAYS, type DayEntryPatch, type DayListQuery } from "./schema.ts";

type DayRow = {
  account_id: string;
  day: string;
  plan: string | null;
  review: string | null;
  mood: number | null;
  tags: string[] | string;
  created_at: string;
  updated_at: string;
};

const columns = sql.raw(`d.account_id::text as account_id, to_char(d.day, 'YYYY-MM-DD') as day, d.plan, d.review, d.mood::int as mood,
  array_to_json(d.tags)::text as tags, ${isoUtc("d.created_at")} as created_at, ${isoUtc("d.updated_at")} as updated_at`);

function toDay(r: DayRow) {
  return {
    accountId: r.account_id,
    day: r.day,
    plan: r.plan,
    review: r.review,
    mood: r.mood,
    tags: typeof r.tags === "string" ? (JSON.parse(r.tags) as string[]) : r.tags,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
export type DayEntry = ReturnType<typeof toDay>;

const NO_ENTRY = () => new AppError("NOT_FOUND", "No journal entry for that day.");

/** GET /api/days: the entries of the user's accounts (or one) from `from` to `to`, both included, oldest first. */
export async function listDays(deps: Pick<Deps, "db">, user: AuthUser, query: DayListQuery) {
  if (query.accountId) await requireOwnAccount(deps, user, query.accountId);
  const rows = rowsOf<DayRow>(
    await deps.db.execute(sql`select ${columns} from day_journals d join accounts a on a.id = d.account_id
      where a.user_id = ${user.id} ${query.accountId ? sql`and d.account_id = ${query.accountId}` : sql``}
        and d.day between ${query.from}::date and ${query.to}::date
      order by d.day, a.name, d.account_id limit ${MAX_DAYS * 20}`),
  );
  return { days: rows.map(toDay) };
}

export async function getDay(deps: Pick<Deps, "db">, user: AuthUser, accountId: string, day: string): Promise<DayEntry> {
  await requireOwnAccount(deps, user, accountId);
  const [row] = rowsOf<DayRow>(await deps.db.execute(sql`select ${columns} from day_journals d where d.account_id = ${accountId} and d.day = ${day}::date`));
  if (!row) throw NO_ENTRY();
  return toDay(row);
}

/** Nothing written in the entry and no image on it (its images keep it). */
const blank = (t: string) =>
  sql.raw(`coalesce(btrim(${t}.plan), '') = '' and coalesce(btrim(${t}.review), '') = '' and ${t}.mood is null and cardinality(${t}.tags) = 0
    and not exists (select 1 from trade_images i where i.day_account_id = ${t}.account_id and i.day = ${t}.day)`);

/**
 * PUT /api/days/:accountId/:day: writes the named fields (insert or update, one statement); the entry as the
 * write left it, or null when that is blank: then it is removed (by a second statement that checks again, so
 * a write landing in between is kept).
 */
export async function writeDay(deps: Pick<Deps, "db">, user: AuthUser, accountId: string, day: string, patch: DayEntryPatch): Promise<DayEntry | null> {
  await requireOwnAccount(deps, user, accountId);
  const tags = patch.tags === undefined ? null : JSON.stringify(await canonicalTags(deps, user.id, patch.tags));
  const keep = (k: keyof DayEntryPatch, column: string) => (patch[k] !== undefined ? sql.raw(`excluded.${column}`) : sql.raw(`d.${column}`));
  const [row] = rowsOf<DayRow & { blank: boolean }>(
    await deps.db.execute(sql`insert into day_journals as d (account_id, day, plan, review, mood, tags)
      values (${accountId}, ${day}::date, ${patch.plan ?? null}, ${patch.review ?? null}, ${patch.mood ?? null},
        coalesce(array(select jsonb_array_elements_text(${tags}::jsonb)), '{}'))
      on conflict (account_id, day) do update set plan = ${keep("plan", "plan")}, review = ${keep("review", "review")},
        mood = ${keep("mood", "mood")}, tags = ${keep("tags", "tags")}, updated_at = now()
      returning ${columns}, (${blank("d")}) as blank`),
  );
  if (!row!.blank) return toDay(row!);
  await deps.db.execute(sql`delete from day_journals x where x.account_id = ${accountId} and x.day = ${day}::date and ${blank("x")}`);
  return null;
}

export async function deleteDay(deps: Pick<Deps, "db">, user: AuthUser, accountId: string, day: string): Promise<void> {
  await requireOwnAccount(deps, user, accountId);
  const rows = rowsOf(await deps.db.execute(sql`delete from day_journals where account_id = ${accountId} and day = ${day}::date returning 1`));
  if (rows.length === 0) throw NO_ENTRY();
}
