// The journals upgrade (migration 0023) on a database the previous release left: notes, tags, setup and
// rating written on positions and screenshots held by positions become the trades' journals, each
// remembering its trade's fills; positions with nothing written get none; nothing written is lost.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrateUrl } from "../../lib/db/migrate.ts";
import { createDatabase, dropDatabase } from "../support/database.ts";
import { applyVersionedOnly, migrationsUpTo } from "../support/migrations.ts";

const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The last migration before trade_journals. */
const BEFORE_JOURNALS = 22;

describe("the journals upgrade", () => {
  it("moves what was written on positions, and their screenshots, into journals on the same trades", async () => {
    const db = await createDatabase("journal_journals_upgrade");
    cleanups.push(() => dropDatabase(db.name));
    const folder = migrationsUpTo(BEFORE_JOURNALS);
    cleanups.push(folder.cleanup);
    await applyVersionedOnly(db.url, folder.dir);

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    cleanups.push(() => client.end());
    const one = async (text: string, values: unknown[] = []) => (await client.query(text, values)).rows[0] as Record<string, string> & { id: string };
    // What the older release wrote, row by row (its functions are not in this folder's catalogue).
    const user = (await one("insert into users (email, password_hash) values ('old@example.com', 'x') returning id")).id;
    const account = (await one("insert into accounts (user_id, name, currency, starting_balance, timezone) values ($1, 'Old', 'USD', 0, 'Etc/UTC') returning id", [user])).id;
    const fill = async (side: string, at: string, exec: string | null) =>
      (await one(
        `insert into fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at, execution_id)
         values ($1, 'AAPL', 'stock', 1, $2, 10, 100, 0, $3, $4) returning id`,
        [account, side, at, exec],
      )).id;
    const position = async (openFill: string, extra: string) =>
      (await one(
        `insert into positions (account_id, open_fill_id, symbol, asset_class, multiplier, direction, opened_at, closed_at, open_quantity,
           max_quantity, entry_quantity, entry_value, exit_quantity, exit_value, fees, gross_pnl, net_pnl ${extra ? ", notes, tags, setup, rating" : ""})
         values ($1, $2, 'AAPL', 'stock', 1, 'long', '2026-03-02T15:00:00Z', '2026-03-02T16:00:00Z', 0, 10, 10, 1000, 10, 1000, 0, 0, 0 ${extra})
         returning id`,
        [account, openFill],
      )).id;
    const share = (positionId: string, fillId: string, role: string, at: string) =>
      client.query("insert into position_fills (position_id, fill_id, quantity, fees, role, executed_at) values ($1, $2, 10, 0, $3, $4)", [positionId, fillId, role, at]);

    const a1 = await fill("buy", "2026-03-02T15:00:00.250Z", "X1");
    const a2 = await fill("sell", "2026-03-02T16:00:00Z", null);
    const written = await position(a1, ", 'planned it', '{breakout}', 'ORB', 4");
    await share(written, a1, "open", "2026-03-02T15:00:00.250Z");
    await share(written, a2, "close", "2026-03-02T16:00:00Z");
    const b1 = await fill("buy", "2026-03-03T15:00:00Z", null);
    const pictured = await position(b1, "");
    await share(pictured, b1, "open", "2026-03-03T15:00:00Z");
    const image = (await one(
      "insert into trade_images (position_id, user_id, content_type, bytes, width, height, data) values ($1, $2, 'image/png', 3, 1, 1, '\\x010203') returning id",
      [pictured, user],
    )).id;
    const c1 = await fill("buy", "2026-03-04T15:00:00Z", null);
    const blank = await position(c1, "");
    await share(blank, c1, "open", "2026-03-04T15:00:00Z");

    await migrateUrl(db.url, { skipPost: false });

    const journals = (
      await client.query(
        `select position_id::text as trade, notes, tags, setup, rating, symbol, fill_count,
           (select array_agg(fill_id::text || ' ' || coalesce(execution_id, '-') || ' ' || to_char(executed_at at time zone 'UTC', 'HH24:MI:SS.MS') order by executed_at)
              from journal_fills where journal_id = j.id) as fills,
           (select array_agg(id::text) from trade_images where journal_id = j.id) as images
         from trade_journals j order by fill_count desc, opened_at`,
      )
    ).rows;
    expect(journals).toEqual([
      {
        trade: written, notes: "planned it", tags: ["breakout"], setup: "ORB", rating: 4, symbol: "AAPL", fill_count: 2,
        fills: [`${a1} X1 15:00:00.000`, `${a2} - 16:00:00.000`], images: null,
      },
      { trade: pictured, notes: null, tags: [], setup: null, rating: null, symbol: "AAPL", fill_count: 1, fills: [`${b1} - 15:00:00.000`], images: [image] },
    ]);
    expect((await client.query("select 1 from trade_journals where position_id = $1", [blank])).rows).toEqual([]);
    // The trade page reads them through the new functions: a note written now lands on the same journal.
    await client.query(`select trade_journal_write($1, $2, '{"rating": 5}'::jsonb)`, [user, written]);
    expect((await one("select notes, rating from trade_journals where position_id = $1", [written]))).toEqual({ notes: "planned it", rating: 5 });
  });
});
