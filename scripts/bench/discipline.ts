// Compliance and behaviour findings over 100,000 trades in a year (one New York account, every rule type on,
// a 1R on every trade and a plan on one in ten): the time to compute them over the whole year through the API
// (goal: under 1 s each), and a month's compliance report through the API against its bare SQL (goal: within
// 1.5x), in one run.
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { startNodeServer } from "../../functions/node-server.ts";
import type { Config } from "../../lib/config/index.ts";
import { createLogger } from "../../lib/log.ts";
import { complianceSql } from "../../lib/rules/compliance.ts";
import { registerBenchUser, request } from "./http.ts";
import { timeMany } from "./startup.ts";

export const DISCIPLINE_TRADES = 100_000;

const RULES = [
  { type: "max_daily_loss", amount: "2000" },
  { type: "max_loss_per_trade", r: "1.5" },
  { type: "max_trades_per_day", count: 300 },
  { type: "max_risk_per_trade", amount: "150" },
  { type: "min_planned_rr", ratio: "2" },
  { type: "no_trading_weekdays", weekdays: [5] },
  { type: "trading_hours", from: "09:30", to: "15:30" },
  { type: "cooldown_after_loss", minutes: 2 },
];

export async function measureDiscipline(config: Config, databaseUrl: string, runs = 7) {
  const server = await startNodeServer(config, { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { cookie, user } = await registerBenchUser(server.url, "discipline-bench");
    const { rows } = await client.query<{ id: string }>("select id from account_create($1, 'Discipline bench', 'USD', 0, 'America/New_York', null, null)", [user.id]);
    const accountId = rows[0]!.id;
    // 100,000 trades over 250 trading days of 2025: 400 a day from 09:30 New York, a minute apart, each held
    // 3 minutes; P&L between -250 and +250; sizes vary so revenge and size-up trades exist.
    await client.query(
      `insert into positions (account_id, open_fill_id, symbol, asset_class, multiplier, direction, opened_at, closed_at,
         open_quantity, max_quantity, entry_quantity, entry_value, exit_quantity, exit_value, fees, gross_pnl, net_pnl)
       select $1, gen_random_uuid(), 'SYM' || (g % 50), 'stock', 1, 'long',
         (date '2025-01-06' + (g / 400 / 5) * 7 + (g / 400 % 5))::timestamp at time zone 'America/New_York' + interval '9 hours 30 minutes' + (g % 400) * interval '1 minute',
         (date '2025-01-06' + (g / 400 / 5) * 7 + (g / 400 % 5))::timestamp at time zone 'America/New_York' + interval '9 hours 33 minutes' + (g % 400) * interval '1 minute',
         0, 100 + (g % 7) * 20, 100 + (g % 7) * 20, (100 + (g % 7) * 20) * 100, 100 + (g % 7) * 20, (100 + (g % 7) * 20) * 100 + ((g * 7919) % 50000 - 25000) / 100.0,
         1.5, ((g * 7919) % 50000 - 25000) / 100.0, ((g * 7919) % 50000 - 25000) / 100.0 - 1.5
       from generate_series(0, $2::int - 1) g`,
      [accountId, DISCIPLINE_TRADES],
    );
    await client.query("update accounts set default_risk = 100 where id = $1", [accountId]);
    await client.query(
      `insert into trade_journals (account_id, position_id, last_position_id, symbol, direction, opened_at, closed_at, net_pnl, fill_count, stop_price, target_price, entry_price)
       select account_id, id, id, symbol, direction, opened_at, closed_at, net_pnl, 2, 99, 101.5, 100 from positions
       where account_id = $1 and (extract(epoch from opened_at)::bigint / 60) % 10 = 0`,
      [accountId],
    );
    for (const rule of RULES) {
      await client.query("insert into trading_rules (account_id, type, params, weight) values ($1, $2, $3, 2)", [accountId, rule.type, JSON.stringify(rule)]);
    }
    await client.query("analyze positions");
    await client.query("analyze trade_journals");

    const api = (path: string) => async () => {
      const res = await request(`${server.url}${path}`, { headers: { Cookie: cookie } });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
    };
    const month = { from: "2025-06-01", to: "2025-06-30" };
    const q = new PgDialect().sqlToQuery(complianceSql(accountId, "America/New_York", month));
    const result = {
      trades: DISCIPLINE_TRADES,
      complianceYear: await timeMany(runs, api(`/api/rules/compliance?accountId=${accountId}`)),
      findingsYear: await timeMany(runs, api(`/api/insights?accountId=${accountId}`)),
      apiMonth: await timeMany(runs * 3, api(`/api/rules/compliance?accountId=${accountId}&from=${month.from}&to=${month.to}`)),
      sqlMonth: await timeMany(runs * 3, () => client.query(q.sql, q.params as unknown[])),
    };
    await client.query("delete from accounts where id = $1", [accountId]);
    return result;
  } finally {
    await client.end();
    await server.close();
  }
}
