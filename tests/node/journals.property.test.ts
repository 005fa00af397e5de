// Property test of the journal rule (issue: never lose what a trader wrote): random sequences of fills added,
// edited and deleted, imports, undos and re-imports of the same files, with journals and screenshots written
// at random points, on the real Postgres through the same SQL functions the API calls. After every step:
// every journal ever written exists exactly once with what was last written in it and all its screenshots,
// and is either on one trade of its account that holds fills it remembers, or detached; a detached one is
// detached for a reason (no trade holds its fills, or each trade that does holds another journal).
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { signUp, testApp } from "../support/app.ts";
import { applyStagedImport } from "../support/staged-import.ts";

const url = () => inject("databaseUrl");

const fillArb = fc.record({
  symbol: fc.constantFrom("AAA", "BBB"),
  buy: fc.boolean(),
  qty: fc.integer({ min: 1, max: 3 }),
  price: fc.constantFrom("10.00", "10.50", "11.00"),
  minute: fc.integer({ min: 0, max: 40 }),
  withId: fc.boolean(),
});
type RandomFill = typeof fillArb extends fc.Arbitrary<infer T> ? T : never;

const opArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("add" as const), fill: fillArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), field: fc.constantFrom("price", "qty", "minute", "side"), to: fillArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("import" as const), rows: fc.array(fillArb, { minLength: 1, maxLength: 6 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("undo" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("reimport" as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("write" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("image" as const), pick: fc.nat() }) },
);

const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 2, 2, 14, 0, second) + minute * 60_000).toISOString();
let execCounter = 0;

describe("journals under random histories (property-based, real Postgres)", () => {
  it("no journal or screenshot is ever lost or duplicated, and each is on one trade holding its fills or detached for a reason", async () => {
    const t = await testApp(url());
    const { userId } = await signUp(t, "journal-property");
    const db: Db = t.deps.db;

    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const [account] = rowsOf<{ id: string }>(
          await db.execute(sql`select id::text from account_create(${userId}, ${`Prop ${crypto.randomUUID()}`}, 'USD', 100000, 'Etc/UTC', null, null)`),
        );
        const accountId = account!.id;
        const expected = new Map<string, { notes: string; images: number }>();
        const imports: Array<{ id: string; rows: Array<RandomFill & { exec: string | null; second: number }>; undone: boolean }> = [];
        let written = 0;

        const fillIds = async () =>
          rowsOf<{ id: string }>(await db.execute(sql`select id::text from fills where account_id = ${accountId}::uuid order by executed_at, id`)).map((r) => r.id);
        const tradeIds = async () =>
          rowsOf<{ id: string }>(await db.execute(sql`select id::text from positions where account_id = ${accountId}::uuid order by opened_at, id`)).map((r) => r.id);

        async function stageAndApply(rows: Array<RandomFill & { exec: string | null; second: number }>) {
          const staged = rows.map((f) => [f.symbol, "stock", "1", f.buy ? "buy" : "sell", String(f.qty), f.price, "0", at(f.minute, f.second), f.exec, false]);
          return applyStagedImport(db, userId, accountId, staged);
        }

        for (const op of ops) {
          switch (op.kind) {
            case "add": {
              const f = op.fill;
              execCounter += 1;
              await db.execute(sql`select fill_add(${userId}, ${accountId}, ${f.symbol}, 'stock', 1, ${f.buy ? "buy" : "sell"}, ${String(f.qty)}::numeric,
                ${f.price}::numeric, 0, ${at(f.minute)}::timestamptz, ${f.withId ? `M${execCounter}` : null}, null)`);
              break;
            }
            case "edit": {
              const ids = await fillIds();
              if (!ids.length) break;
              const id = ids[op.pick % ids.length]!;
              const v = op.to;
              await db.execute(sql`select fill_update(${userId}, ${id}::uuid, null, null, null,
                ${op.field === "side" ? (v.buy ? "buy" : "sell") : null}, ${op.field === "qty" ? String(v.qty) : null}::numeric,
                ${op.field === "price" ? v.price : null}::numeric, null, ${op.field === "minute" ? at(v.minute) : null}::timestamptz)`);
              break;
            }
            case "delete": {
              const ids = await fillIds();
              if (ids.length) await db.execute(sql`select fill_delete(${userId}, ${ids[op.pick % ids.length]!}::uuid)`);
              break;
            }
            case "import": {
              const rows = op.rows.map((r, i) => {
                execCounter += 1;
                return { ...r, exec: r.withId ? `I${execCounter}` : null, second: i };
              });
              imports.push({ id: await stageAndApply(rows), rows, undone: false });
              break;
            }
            case "undo": {
              const live = imports.filter((i) => !i.undone);
              if (!live.length) break;
              const imp = live[op.pick % live.length]!;
              await db.execute(sql`select import_undo(${userId}::uuid, ${imp.id}::uuid)`);
              imp.undone = true;
              break;
            }
            case "reimport": {
              // The same file again: the same rows, the same execution ids.
              const gone = imports.filter((i) => i.undone);
              if (!gone.length) break;
              const imp = gone[op.pick % gone.length]!;
              imports.splice(imports.indexOf(imp), 1); // its rows are in again, under the new import
              imports.push({ id: await stageAndApply(imp.rows), rows: imp.rows, undone: false });
              break;
            }
            case "write": {
              const trades = await tradeIds();
              if (!trades.length) break;
              written += 1;
              const notes = `note ${written} ${crypto.randomUUID()}`;
              const [row] = rowsOf<{ j: { id: string } | string }>(
                await db.execute(sql`select trade_journal_write(${userId}::uuid, ${trades[op.pick % trades.length]!}::uuid, jsonb_build_object('notes', ${notes}::text)) as j`),
              );
              const j = typeof row!.j === "string" ? (JSON.parse(row!.j) as { id: string }) : row!.j;
              expected.set(j.id, { notes, images: expected.get(j.id)?.images ?? 0 });
              break;
            }
            case "image": {
              const trades = await tradeIds();
              if (!trades.length) break;
              const trade = trades[op.pick % trades.length]!;
              const [added] = rowsOf<{ outcome: string }>(
                await db.execute(sql`select trade_image_add(gen_random_uuid(), ${trade}::uuid, ${userId}::uuid, 'image/png', 4, 1, 1, 'AAAA', null, 10) as outcome`),
              );
              if (added!.outcome !== "added") break;
              const [j] = rowsOf<{ id: string; notes: string | null }>(
                await db.execute(sql`select id::text, notes from trade_journals where position_id = ${trade}::uuid`),
              );
              const before = expected.get(j!.id);
              expected.set(j!.id, { notes: before?.notes ?? j!.notes ?? "", images: (before?.images ?? 0) + 1 });
              break;
            }
          }
          await checkInvariants(db, accountId, expected, op.kind);
        }
      }),
      { numRuns: 40 },
    );
  });
});

async function checkInvariants(db: Db, accountId: string, expected: Map<string, { notes: string; images: number }>, after: string) {
  const journals = rowsOf<{ id: string; notes: string | null; position_id: string | null; images: number; position_account: string | null }>(
    await db.execute(sql`select j.id::text, j.notes, j.position_id::text,
        (select count(*)::int from trade_images i where i.journal_id = j.id) as images,
        (select p.account_id::text from positions p where p.id = j.position_id) as position_account
      from trade_journals j where j.account_id = ${accountId}::uuid`),
  );
  const actual = new Map(journals.map((j) => [j.id, { notes: j.notes ?? "", images: Number(j.images) }]));
  expect(actual, `journals after ${after}`).toEqual(expected);
  for (const j of journals) {
    if (j.position_id === null) continue;
    expect(j.position_account, `journal ${j.id} on a trade of its account after ${after}`).toBe(accountId);
  }
  // An attached journal remembers exactly its trade's fills.
  const mismatched = rowsOf(
    await db.execute(sql`select j.id from trade_journals j
      where j.account_id = ${accountId}::uuid and j.position_id is not null
        and (select array_agg(fill_id order by fill_id) from journal_fills where journal_id = j.id)
          is distinct from (select array_agg(fill_id order by fill_id) from position_fills where position_id = j.position_id)`),
  );
  expect(mismatched, `attached journals remember their trade's fills after ${after}`).toEqual([]);
  // A detached journal: every trade holding one of the fills it remembers holds another journal.
  const stranded = rowsOf(
    await db.execute(sql`select j.id, p.id as trade from trade_journals j
      join journal_fills jf on jf.journal_id = j.id
      join fills f on f.account_id = j.account_id and (f.id = jf.fill_id
        or (jf.execution_id is not null and f.execution_id = jf.execution_id)
        or (f.symbol = jf.symbol and date_trunc('second', f.executed_at) = jf.executed_at and f.side = jf.side
            and f.quantity = jf.quantity and f.price = jf.price
            and (f.execution_id is null or jf.execution_id is null or f.execution_id = jf.execution_id)))
      join position_fills pf on pf.fill_id = f.id
      join positions p on p.id = pf.position_id
      where j.account_id = ${accountId}::uuid and j.position_id is null
        and not exists (select 1 from trade_journals o where o.position_id = p.id)`),
  );
  expect(stranded, `detached journals whose fills are in a free trade after ${after}`).toEqual([]);
}
