// Playbooks (DESIGN.md section 10, "Playbooks, rules and the daily journal"; docs/discipline.md): the setups a
// trader trades, each with entry and exit criteria and a checklist a trade taken from it answers. The
// assignment and the answers live in the trade's journal (trade_journals.playbook_id, playbook_answers), so
// they follow the fills through every rebuild like the notes do. A playbook that trades use is archived,
// never deleted, so no answer loses its question.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError, type FieldError } from "../errors.ts";
import type { NewPlaybook, PlaybookAnswers, PlaybookItemInput, PlaybookPatch } from "./schema.ts";

export type PlaybookItem = { id: string; kind: "checkbox" | "number" | "text" | "choice"; label: string; options?: string[] };

type PlaybookRow = {
  id: string;
  name: string;
  description: string | null;
  entry_criteria: string | null;
  exit_criteria: string | null;
  items: PlaybookItem[] | string;
  archived_at: string | null;
  trades: string;
  created_at: string;
  updated_at: string;
};

const columns = sql.raw(`b.id::text as id, b.name, b.description, b.entry_criteria, b.exit_criteria, b.items::text as items,
  ${isoUtc("b.archived_at")} as archived_at, (select count(*) from trade_journals j where j.playbook_id = b.id)::text as trades,
  ${isoUtc("b.created_at")} as created_at, ${isoUtc("b.updated_at")} as updated_at`);

function toPlaybook(r: PlaybookRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    entryCriteria: r.entry_criteria,
    exitCriteria: r.exit_criteria,
    items: typeof r.items === "string" ? (JSON.parse(r.items) as PlaybookItem[]) : r.items,
    archived: r.archived_at !== null,
    archivedAt: r.archived_at,
    /** Trades (and detached notes) taken from it. */
    trades: Number(r.trades),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
export type Playbook = ReturnType<typeof toPlaybook>;

const NO_PLAYBOOK = () => new AppError("NOT_FOUND", "No such playbook.");
const nameTaken = (name: string) => new AppError("CONFLICT", `You already have a playbook named "${name}".`);
const blank = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === "" ? null : v);

/** Items as stored: every item with an id (new ones get one), options only on choice items. */
function storedItems(items: PlaybookItemInput[]): PlaybookItem[] {
  return items.map((i) => ({ id: i.id ?? crypto.randomUUID(), kind: i.kind, label: i.label, ...(i.kind === "choice" ? { options: i.options! } : {}) }));
}

export async function listPlaybooks(deps: Pick<Deps, "db">, user: AuthUser, archived?: "true" | "false") {
  const rows = rowsOf<PlaybookRow>(
    await deps.db.execute(sql`select ${columns} from playbooks b where b.user_id = ${user.id}
      ${archived === "true" ? sql`and b.archived_at is not null` : archived === "false" ? sql`and b.archived_at is null` : sql``}
      order by b.archived_at is not null, lower(b.name), b.id`),
  );
  return { playbooks: rows.map(toPlaybook) };
}

export async function getPlaybook(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<Playbook> {
  const [row] = rowsOf<PlaybookRow>(await deps.db.execute(sql`select ${columns} from playbooks b where b.id = ${id} and b.user_id = ${user.id}`));
  if (!row) throw NO_PLAYBOOK();
  return toPlaybook(row);
}

export async function createPlaybook(deps: Pick<Deps, "db">, user: AuthUser, body: NewPlaybook): Promise<Playbook> {
  try {
    const [row] = rowsOf<PlaybookRow>(
      await deps.db.execute(sql`insert into playbooks as b (user_id, name, description, entry_criteria, exit_criteria, items)
        values (${user.id}, ${body.name}, ${blank(body.description) ?? null}, ${blank(body.entryCriteria) ?? null}, ${blank(body.exitCriteria) ?? null},
          ${JSON.stringify(storedItems(body.items.map(({ id: _id, ...item }) => item)))}::jsonb)
        returning ${columns}`),
    );
    return toPlaybook(row!);
  } catch (err) {
    if (isUniqueViolation(err, "playbooks_user_name_idx")) throw nameTaken(body.name);
    throw err;
  }
}

export async function updatePlaybook(deps: Pick<Deps, "db">, user: AuthUser, id: string, patch: PlaybookPatch): Promise<Playbook> {
  let items: PlaybookItem[] | undefined;
  if (patch.items) {
    // An id must name one of this playbook's items (so an answer is never read against another question).
    const current = await getPlaybook(deps, user, id);
    const known = new Map(current.items.map((i) => [i.id, i]));
    const fields: FieldError[] = [];
    patch.items.forEach((i, n) => {
      if (i.id && !known.has(i.id)) fields.push({ path: `items.${n}.id`, message: "is not an item of this playbook" });
      else if (i.id && known.get(i.id)!.kind !== i.kind) fields.push({ path: `items.${n}.kind`, message: `cannot change: the item's answers are ${known.get(i.id)!.kind} answers (add a new item instead)` });
    });
    if (fields.length) throw new AppError("VALIDATION_ERROR", "Some checklist items are not valid.", { fields });
    items = storedItems(patch.items);
  }
  const set = [
    patch.name !== undefined ? sql`name = ${patch.name}` : undefined,
    patch.description !== undefined ? sql`description = ${blank(patch.description)}` : undefined,
    patch.entryCriteria !== undefined ? sql`entry_criteria = ${blank(patch.entryCriteria)}` : undefined,
    patch.exitCriteria !== undefined ? sql`exit_criteria = ${blank(patch.exitCriteria)}` : undefined,
    items !== undefined ? sql`items = ${JSON.stringify(items)}::jsonb` : undefined,
    patch.archived !== undefined ? sql`archived_at = ${patch.archived ? sql`coalesce(archived_at, now())` : sql`null`}` : undefined,
  ].filter((s) => s !== undefined);
  try {
    const [row] = rowsOf<PlaybookRow>(
      await deps.db.execute(sql`update playbooks b set ${sql.join([...set, sql`updated_at = now()`], sql`, `)}
        where b.id = ${id} and b.user_id = ${user.id} returning ${columns}`),
    );
    if (!row) throw NO_PLAYBOOK();
    return toPlaybook(row);
  } catch (err) {
    if (patch.name !== undefined && isUniqueViolation(err, "playbooks_user_name_idx")) throw nameTaken(patch.name);
    throw err;
  }
}

/** Deletes a playbook no trade uses; one that trades use is a 409 (archive it instead: their answers stay). */
export async function deletePlaybook(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<void> {
  const [row] = rowsOf<{ found: boolean; used: boolean }>(
    await deps.db.execute(sql`with target as (select id from playbooks where id = ${id} and user_id = ${user.id} for update),
        used as (select exists (select 1 from trade_journals j join target t on t.id = j.playbook_id)
          or exists (select 1 from strategies x join target t on t.id = x.playbook_id) as used),
        gone as (delete from playbooks where id = (select id from target) and not (select used from used) returning 1)
      select exists (select 1 from target) as found, (select used from used) as used, (select count(*) from gone) as deleted`),
  );
  if (!row?.found) throw NO_PLAYBOOK();
  if (row.used) {
    throw new AppError("CONFLICT", "Trades (or option strategies) are taken from this playbook: archive it instead, so their checklist answers keep their questions.");
  }
}

/**
 * Checks a trade's answers against its playbook's checklist (the playbook the patch assigns, else the one the
 * trade has): each key an item of it, each value of the item's kind (a choice one of its options).
 */
export async function checkAnswers(deps: Pick<Deps, "db">, user: AuthUser, tradeId: string, playbookId: string | null | undefined, answers: PlaybookAnswers): Promise<void> {
  const [row] = rowsOf<{ items: PlaybookItem[] | string | null }>(
    await deps.db.execute(
      playbookId !== undefined
        ? sql`select items::text as items from playbooks where id = ${playbookId} and user_id = ${user.id}`
        : sql`select b.items::text as items from trade_journals j join playbooks b on b.id = j.playbook_id where j.position_id = ${tradeId} and b.user_id = ${user.id}`,
    ),
  );
  const items = row?.items ? (typeof row.items === "string" ? (JSON.parse(row.items) as PlaybookItem[]) : row.items) : [];
  if (!row && Object.keys(answers).length > 0) {
    throw new AppError("VALIDATION_ERROR", "Answers need a playbook: assign one to the trade first (playbookId).", {
      fields: [{ path: "playbookAnswers", message: "the trade has no playbook" }],
    });
  }
  const byId = new Map(items.map((i) => [i.id, i]));
  const fields: FieldError[] = [];
  for (const [id, value] of Object.entries(answers)) {
    const item = byId.get(id);
    const path = `playbookAnswers.${id}`;
    if (!item) fields.push({ path, message: "is not an item of the trade's playbook" });
    else if (value === null) continue;
    else if (item.kind === "checkbox" && typeof value !== "boolean") fields.push({ path, message: "must be true or false" });
    else if (item.kind === "number" && typeof value !== "number") fields.push({ path, message: "must be a number" });
    else if (item.kind === "text" && typeof value !== "string") fields.push({ path, message: "must be a text" });
    else if (item.kind === "choice" && (typeof value !== "string" || !item.options?.includes(value))) fields.push({ path, message: `must be one of: ${item.options?.join(", ")}` });
  }
  if (fields.length) throw new AppError("VALIDATION_ERROR", "Some checklist answers do not fit the playbook.", { fields });
}
