// The bar days upgrade (migration 0042): a day's bars stored as [epoch, open, ...] arrays (migration 0030) become
// the bars as the chart answers them, rewritten from the bars table; a day without bars stays without.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrateUrl } from "../../lib/db/migrate.ts";
import { createDatabase, dropDatabase } from "../support/database.ts";
import { applyVersionedOnly, migrationsUpTo } from "../support/migrations.ts";

const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The last migration before the chart's bar objects. */
const BEFORE_OBJECTS = 41;

describe("the bar days upgrade", () => {
  it("rewrites each stored day's bars as the chart answers them", async () => {
    const db = await createDatabase("journal_bar_days_upgrade");
    cleanups.push(() => dropDatabase(db.name));
    const folder = migrationsUpTo(BEFORE_OBJECTS);
    cleanups.push(folder.cleanup);
    await applyVersionedOnly(db.url, folder.dir);

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    cleanups.push(() => client.end());
    const user = (await client.query("insert into users (email, password_hash) values ('old@example.com', 'x') returning id")).rows[0].id as string;
    await client.query(
      `insert into bars (user_id, symbol, resolution, t, open, high, low, close, volume, source) values
         ($1, 'AAPL', '1m', '2026-03-02T14:30:00Z', 100.3, 100.45, 100, 100.25, 1200, 'provider'),
         ($1, 'AAPL', '1m', '2026-03-02T14:31:00Z', 100.25, 101, 99.5, 100.125, 0, 'provider')`,
      [user],
    );
    // As migration 0030's bars_store wrote them.
    await client.query(
      `insert into bar_days (user_id, symbol, resolution, day, status, attempts, next_attempt_at, updated_at, source, bars_json) values
         ($1, 'AAPL', '1m', '2026-03-02', 'ok', 0, now(), now(), 'provider', '[[1772461800,"100.3","100.45","100","100.25","1200"],[1772461860,"100.25","101","99.5","100.125","0"]]'),
         ($1, 'AAPL', '1m', '2026-03-03', 'empty', 0, now(), now(), 'provider', null)`,
      [user],
    );

    await migrateUrl(db.url, { skipPost: false });
    const { rows } = await client.query<{ day: string; bars_json: string | null }>("select day, bars_json from bar_days order by day");
    expect(rows.map((r) => [r.day, r.bars_json === null ? null : JSON.parse(r.bars_json)])).toEqual([
      [
        "2026-03-02",
        [
          { t: "2026-03-02T14:30:00.000Z", open: "100.30", high: "100.45", low: "100.00", close: "100.25", volume: "1200.00" },
          { t: "2026-03-02T14:31:00.000Z", open: "100.25", high: "101.00", low: "99.50", close: "100.125", volume: "0.00" },
        ],
      ],
      ["2026-03-03", null],
    ]);
  });
});
