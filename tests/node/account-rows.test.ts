// Fills, ledger entries and trades belong to an existing account and go with it (account_rows.sql: checked
// and cascaded once per statement, not by a foreign key per row). Real Postgres, two connections where a
// writer and a deleter meet.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const url = () => inject("databaseUrl");
let a: pg.Client;
let b: pg.Client;
beforeAll(async () => {
  a = new pg.Client({ connectionString: url() });
  b = new pg.Client({ connectionString: url() });
  await Promise.all([a.connect(), b.connect()]);
});
afterAll(async () => {
  await Promise.all([a?.end(), b?.end()]);
});

async function newAccount(): Promise<{ userId: string; accountId: string }> {
  const user = await a.query<{ id: string }>("insert into users (email, password_hash) values ($1, 'x') returning id::text as id", [`rows-${crypto.randomUUID()}@example.com`]);
  const userId = user.rows[0]!.id;
  const account = await a.query<{ id: string }>("select id::text as id from account_create($1, 'Rows', 'USD', 1000, 'Etc/UTC', null, null)", [userId]);
  return { userId, accountId: account.rows[0]!.id };
}

/** A round trip through fill_add (the fills, their ledger entries, the trade and its shares). */
async function roundTrip(client: pg.Client, userId: string, accountId: string) {
  for (const [side, minute] of [["buy", 0], ["sell", 5]] as const) {
    await client.query(
      `select id from fill_add($1, $2, 'AAPL', 'stock', 1, $3, 10, 100, 1, timestamptz '2026-03-02 15:00Z' + $4 * interval '1 minute', null, null)`,
      [userId, accountId, side, minute],
    );
  }
}

const INSERT_FILL = `insert into fills (account_id, symbol, asset_class, multiplier, side, quantity, price, executed_at)
  values ($1, 'MSFT', 'stock', 1, 'buy', 1, 10, now())`;

async function counts(accountId: string) {
  const { rows } = await a.query<{ fills: number; entries: number; trades: number; shares: number }>(
    `select (select count(*)::int from fills where account_id = $1) as fills,
            (select count(*)::int from ledger_entries where account_id = $1) as entries,
            (select count(*)::int from positions where account_id = $1) as trades,
            (select count(*)::int from position_fills where account_id = $1) as shares`,
    [accountId],
  );
  return rows[0]!;
}

const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);

describe("the account of fills, ledger entries and trades", () => {
  it("a row naming no account is refused (23503) and the whole statement with it", async () => {
    const { accountId } = await newAccount();
    const missing = crypto.randomUUID();
    expect(await codeOf(a.query(INSERT_FILL, [missing]))).toBe("23503");
    // One statement writing rows of a real account and of a missing one writes none of them.
    expect(
      await codeOf(
        a.query(
          `insert into fills (account_id, symbol, asset_class, multiplier, side, quantity, price, executed_at)
           select x, 'MSFT', 'stock', 1, 'buy', 1, 10, now() from unnest($1::uuid[]) x`,
          [[accountId, missing]],
        ),
      ),
    ).toBe("23503");
    expect(await codeOf(a.query("insert into ledger_entries (account_id, type, amount, occurred_at) values ($1, 'deposit', 5, now())", [missing]))).toBe("23503");
    expect(
      await codeOf(
        a.query(
          `insert into positions (account_id, open_fill_id, symbol, asset_class, multiplier, direction, opened_at, open_quantity, max_quantity,
             entry_quantity, entry_value, exit_quantity, exit_value, fees, gross_pnl, net_pnl)
           values ($1, gen_random_uuid(), 'X', 'stock', 1, 'long', now(), 1, 1, 1, 1, 0, 0, 0, 0, 0)`,
          [missing],
        ),
      ),
    ).toBe("23503");
    expect(await counts(accountId)).toEqual({ fills: 0, entries: 1, trades: 0, shares: 0 });
    expect((await a.query("select count(*)::int as n from fills where account_id = $1", [missing])).rows[0].n).toBe(0);
  });

  it("a row never moves to another account", async () => {
    const one = await newAccount();
    const two = await newAccount();
    await roundTrip(a, one.userId, one.accountId);
    for (const table of ["fills", "ledger_entries", "positions"]) {
      expect([table, await codeOf(a.query(`update ${table} set account_id = $2 where account_id = $1`, [one.accountId, two.accountId]))]).toEqual([table, "23000"]);
    }
    expect(await counts(one.accountId)).toEqual({ fills: 2, entries: 3, trades: 1, shares: 2 });
    expect(await counts(two.accountId)).toEqual({ fills: 0, entries: 1, trades: 0, shares: 0 });
  });

  it("deleting an account or its user deletes its fills, entries, trades and shares, and nobody else's", async () => {
    const gone = await newAccount();
    const leaving = await newAccount();
    const staying = await newAccount();
    for (const x of [gone, leaving, staying]) await roundTrip(a, x.userId, x.accountId);
    await a.query("delete from accounts where id = $1", [gone.accountId]);
    await a.query("delete from users where id = $1", [leaving.userId]);
    expect(await counts(gone.accountId)).toEqual({ fills: 0, entries: 0, trades: 0, shares: 0 });
    expect(await counts(leaving.accountId)).toEqual({ fills: 0, entries: 0, trades: 0, shares: 0 });
    expect(await counts(staying.accountId)).toEqual({ fills: 2, entries: 3, trades: 1, shares: 2 });
  });

  it("an account deleted while a writer holds it goes with the writer's rows; a writer after the deletion fails", async () => {
    // The writer first: its check holds the account (FOR KEY SHARE) until it commits, and the deletion,
    // waiting for it, then takes what it wrote.
    const first = await newAccount();
    await a.query("begin");
    await a.query(INSERT_FILL, [first.accountId]);
    const deleting = b.query("delete from accounts where id = $1", [first.accountId]);
    const raced = await Promise.race([deleting.then(() => "deleted"), new Promise((r) => setTimeout(() => r("waiting"), 300))]);
    expect(raced).toBe("waiting");
    await a.query("commit");
    await deleting;
    expect(await counts(first.accountId)).toEqual({ fills: 0, entries: 0, trades: 0, shares: 0 });

    // The deletion first: the writer's check waits for it, then finds no account.
    const second = await newAccount();
    await b.query("begin");
    await b.query("delete from accounts where id = $1", [second.accountId]);
    const writing = codeOf(a.query(INSERT_FILL, [second.accountId]));
    await new Promise((r) => setTimeout(r, 200));
    await b.query("commit");
    expect(await writing).toBe("23503");
    expect(await counts(second.accountId)).toEqual({ fills: 0, entries: 0, trades: 0, shares: 0 });
  });
});
