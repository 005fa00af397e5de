// The money-rules upgrade (migration 0015, post-migration 0002_money_rules) on a database that holds what
// the older release wrote: a futures fill booked at its notional, a partial exit that realised nothing, and
// an opening entry that older history had pushed out of first place.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrateUrl } from "../../lib/db/migrate.ts";
import { createDatabase, dropDatabase } from "../support/database.ts";
import { applyVersionedOnly, LAST_MIGRATION_BEFORE_FUNCTION_FILES, migrationsUpTo } from "../support/migrations.ts";

const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe("the money-rules upgrade", () => {
  it("re-derives futures cash, realises partial exits and puts the opening entry first, keeping journal fields", async () => {
    const db = await createDatabase("journal_money_upgrade");
    cleanups.push(() => dropDatabase(db.name));
    const folder = migrationsUpTo(LAST_MIGRATION_BEFORE_FUNCTION_FILES);
    cleanups.push(folder.cleanup);
    await applyVersionedOnly(db.url, folder.dir);

    // What the older release wrote, through its own functions.
    const accountId = await withClient(db.url, async (c) => {
      const user = (await c.query<{ id: string }>("insert into users (email, password_hash) values ('old@example.com', 'x') returning id")).rows[0]!.id;
      const account = (
        await c.query<{ id: string }>("select id from account_create($1, 'Old', 'USD', 10000, 'America/New_York', null, null)", [user])
      ).rows[0]!.id;
      const add = (symbol: string, assetClass: string, multiplier: string, side: string, qty: string, price: string, fees: string, at: string) =>
        c.query("select fill_add($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, null, null)", [user, account, symbol, assetClass, multiplier, side, qty, price, fees, at]);
      await add("ESH24", "future", "50", "buy", "1", "5000", "2.25", "2024-01-19T16:05:00Z");
      await add("XYZ", "stock", "1", "buy", "100", "10", "0", "2024-01-22T15:00:00Z");
      await add("XYZ", "stock", "1", "sell", "50", "12", "0", "2024-01-23T15:00:00Z");
      await c.query("update positions set notes = 'kept' where account_id = $1", [account]);
      return account;
    });
    const before = await withClient(db.url, async (c) => ({
      balance: (await c.query("select balance_after::text as b from ledger_entries where account_id = $1 order by rank desc limit 1", [accountId])).rows[0]!.b,
      first: (await c.query("select type from ledger_entries where account_id = $1 order by rank limit 1", [accountId])).rows[0]!.type,
    }));
    // The notional of one ES contract left the account; the opening entry (dated today) is last.
    expect(before).toEqual({ balance: "-240402.2500000000", first: "fill" });

    await migrateUrl(db.url, { skipPost: false });

    await withClient(db.url, async (c) => {
      const entries = (
        await c.query<{ type: string; amount: string; balance: string }>(
          "select type, amount::text as amount, balance_after::text as balance from ledger_running where account_id = $1 order by rank",
          [accountId],
        )
      ).rows;
      expect(entries).toEqual([
        { type: "opening", amount: "10000.0000000000", balance: "10000.0000000000" },
        { type: "fill", amount: "-2.2500000000", balance: "9997.7500000000" }, // the ES fee only
        { type: "fill", amount: "-1000.0000000000", balance: "8997.7500000000" },
        { type: "fill", amount: "600.0000000000", balance: "9597.7500000000" },
      ]);
      const shares = (
        await c.query<{ role: string; realized: string; at: string | null }>(
          `select pf.role, pf.realized::text as realized, pf.executed_at is not null as at
           from position_fills pf join positions p on p.id = pf.position_id where p.account_id = $1 and p.symbol = 'XYZ' order by pf.executed_at`,
          [accountId],
        )
      ).rows;
      expect(shares).toEqual([
        { role: "open", realized: "0.0000000000", at: true },
        { role: "reduce", realized: "100.0000000000", at: true },
      ]);
      // The notes written on positions then are their trades' journals now (migration 0023).
      const notes = (
        await c.query<{ notes: string; on: boolean }>(
          "select j.notes, p.id is not null as on from trade_journals j left join positions p on p.id = j.position_id where j.account_id = $1",
          [accountId],
        )
      ).rows;
      expect(notes).toEqual([
        { notes: "kept", on: true },
        { notes: "kept", on: true },
      ]);
    });
  });
});
