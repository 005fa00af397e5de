// The weekly digest (issue 60; docs/digest.md) in one job run: 10,000 users whose digest is due, each with an
// account and a week of four trades on two days, sent over SMTP to a local server that discards them:
// - the run's time (goal: under 5 minutes), and its baseline: the week's summary alone for the same users, as
//   the job reads them (one after another, the same pool);
// - the process's peak RSS growth during the run (goal: under 150 MB) and the most connections the job held
//   (the pool's, never one per user).
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { createNodeMailer } from "../../lib/email/index.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { sendDueDigests } from "../../lib/digest/delivery.ts";
import { summary } from "../../lib/stats/stats.ts";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../lib/db/rows.ts";
import { testConfig } from "../../tests/support/env.ts";
import { testDeps } from "../../tests/support/deps.ts";
import { memoryOf } from "./imports.ts";
import { writeClearRefs } from "./sync.ts";

export const DIGEST_USERS = 10_000;
const POOL = 8;
/** Monday 2026-11-23 09:00 New York: every digest (Mondays 08:00 New York) is due. */
const NOW = new Date("2026-11-23T14:00:00Z");

export async function measureDigest(env: Record<string, string>, databaseUrl: string) {
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  const config = testConfig({ ...env, DATABASE_URL: databaseUrl, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(port), SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "http://localhost:3100" });
  const handle = await createNodeDb(databaseUrl, { poolSize: POOL, transactionPooler: false });
  const deps = { ...testDeps(config, handle, { mailer: await createNodeMailer(config) }), now: () => NOW };
  try {
    await deps.db.execute(sql`insert into users (email, password_hash, email_verified) select 'digest-' || g || '@example.com', 'x', true from generate_series(1, ${DIGEST_USERS}::int) g`);
    await deps.db.execute(sql`insert into user_settings (user_id, digest) select id, '{"weekly": true, "weekday": 1, "hour": 8, "zone": "America/New_York"}'::jsonb from users`);
    await deps.db.execute(sql`select account_create(id, 'Main', 'USD', 10000, 'America/New_York', null, null) from users`);
    // Two round trips on Tuesday and two on Thursday of the week before; one in four a loss.
    await deps.db.execute(sql`insert into fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at)
      select a.id, 'S' || (t % 7), 'stock', 1, s.side, 10, case when s.side = 'buy' then 100 else 100 + case when t = 2 then -2 else 3 end end, 1,
        timestamptz '2026-11-17 15:00Z' + ((t / 2) * interval '2 days') + (t % 2) * interval '1 hour' + case when s.side = 'sell' then interval '20 minutes' else interval '0' end
      from accounts a cross join generate_series(0, 3) t cross join (values ('buy'), ('sell')) s(side)`);
    const users = rowsOf<{ id: string }>(await deps.db.execute(sql`select id::text as id from users`));
    const week = { from: "2026-11-16T05:00:00.000Z", to: "2026-11-23T05:00:00.000Z" };
    // The baseline: the week's summary alone for each user, as the digest reads it.
    const b0 = performance.now();
    for (const u of users) await summary(deps, { userId: u.id }, { currency: "USD", ...week });
    const summaryMs = performance.now() - b0;

    let maxConnections = 0;
    const sampler = setInterval(() => {
      const c = handle.connections?.();
      if (c) maxConnections = Math.max(maxConnections, c.total);
    }, 50);
    await writeClearRefs(process.pid);
    const before = memoryOf(process.pid);
    const t0 = performance.now();
    const outcome = await sendDueDigests(deps, { budgetMs: 30 * 60_000 });
    const runMs = performance.now() - t0;
    clearInterval(sampler);
    const peakGrowth = memoryOf(process.pid).hwm - before.rss;
    return { runMs, summaryMs, outcome, received, peakGrowth, rssBefore: before.rss, maxConnections, pool: POOL };
  } finally {
    await handle.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}
