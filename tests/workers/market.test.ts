import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import jobs from "../../functions/workers/jobs.ts";
import { call, registered } from "./http.ts";
import { testSql } from "./sql.ts";

// Market data inside workerd over the serverless HTTP driver: the jobs Worker's cron loads the ticker file
// from the local stand-in (the swap is one statement, no interactive transaction), search reads it, and a
// quote comes from the stand-in provider.

it("the */15 cron loads the ticker file; /api/symbols searches it; /api/quotes answers the delayed price", async () => {
  const sql = testSql();
  const ctx = createExecutionContext();
  await jobs.scheduled(createScheduledController({ cron: "*/15 * * * *" }), { ...env }, ctx);
  await waitOnExecutionContext(ctx);
  const [state] = (await sql`select rows, loaded_at is not null as loaded, last_error from symbol_loads`) as [{ rows: number; loaded: boolean; last_error: string | null }];
  expect(state).toEqual({ rows: 18, loaded: true, last_error: null });

  const cookie = await registered("market");
  const found = await call("/api/symbols?q=coca", { cookie });
  expect(found.status).toBe(200);
  expect(await found.json()).toEqual({ symbols: [{ ticker: "KO", name: "COCA COLA CO", exchange: "NYSE" }] });
  expect((await call("/api/symbols?q=", { cookie })).status).toBe(400);

  const quote = await call("/api/quotes/msft", { cookie });
  expect(quote.status).toBe(200);
  expect(await quote.json()).toMatchObject({ symbol: "MSFT", price: "410.50", delayed: true, stale: false });
});
