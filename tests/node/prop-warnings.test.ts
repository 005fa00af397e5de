// Prop-firm warnings (issue 56, docs/prop-firms.md "Warnings"): the trader's thresholds on an evaluation, a
// notice in the app and an email (a real SMTP server catching it) after the fill that brought the status under
// one, once per kind and trading day however often the job runs, nothing for a fill that stays above, and the
// thresholds refused when they cannot apply. Real Postgres, the real migrations.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createNodeMailer } from "../../lib/email/index.ts";
import { checkWarnings } from "../../lib/prop/warnings.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { startSmtpServer, type SmtpTestServer } from "../support/smtp-server.ts";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../lib/db/rows.ts";
import type { TestClient } from "../support/client.ts";

let smtp: SmtpTestServer;
let t: TestApp;
/** Tuesday 2026-03-10, 11:00 Chicago: the trading day that started at 17:00 on Monday is 2026-03-10. */
let now = new Date("2026-03-10T16:00:00Z");

beforeAll(async () => {
  smtp = await startSmtpServer({ tls: "none" });
  const env = { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "http://localhost:3100" };
  const probe = await testApp(inject("databaseUrl"), env);
  t = await testApp(inject("databaseUrl"), env, { mailer: await createNodeMailer(probe.config), peer: "per-request", now: () => now });
});
afterAll(() => smtp?.close());

async function json(res: Response, status = 200) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : null;
}

/** A verified trader with a static-drawdown evaluation: 50,000, floor 48,000, daily loss limit 1,000. */
async function trader(tag: string): Promise<{ client: TestClient; id: string; email: string }> {
  const { client, userId } = await signUp(t, tag);
  await t.deps.db.execute(sql`update users set email_verified = true where id = ${userId}::uuid`);
  const [{ email }] = rowsOf<{ email: string }>(await t.deps.db.execute(sql`select email from users where id = ${userId}::uuid`)) as [{ email: string }];
  const id = (await json(await client.post("/api/accounts", { name: `Warn ${crypto.randomUUID()}`, currency: "USD", timezone: "America/Chicago" }), 201)).id as string;
  await json(
    await client.request(`/api/accounts/${id}/evaluation`, {
      method: "PUT",
      json: {
        firm: "Test Firm", phase: "evaluation", startDate: "2026-03-02", startingBalance: "50000", profitTarget: "3000", maxDrawdown: "2000",
        drawdownMode: "static", dailyLossLimit: "1000", dailyLossIncludesOpen: false, dayStartsAt: "17:00", dayZone: "America/Chicago",
        minTradingDays: 0, consistencyPct: null, maxContracts: null,
      },
    }),
  );
  return { client, id, email };
}
/** One share bought and sold 10 minutes later: the difference is the P&L (no fees). */
const round = async (client: TestClient, id: string, buy: string, sell: string, at: string) => {
  await json(await client.post("/api/fills", { accountId: id, symbol: "AAPL", side: "buy", quantity: "1", price: buy, fees: "0", executedAt: at }), 201);
  await json(await client.post("/api/fills", { accountId: id, symbol: "AAPL", side: "sell", quantity: "1", price: sell, fees: "0", executedAt: new Date(Date.parse(at) + 600_000).toISOString() }), 201);
};
const warningMails = (email: string) => smtp.messages.filter((m) => m.to.includes(email) && m.subject.startsWith("Test Firm"));

describe("prop-firm warnings", () => {
  it("warns once per kind and trading day after the fill that brings the status under a threshold, in the app and by email", async () => {
    const { client, id, email } = await trader("prop-warn");
    const set = await json(await client.request(`/api/accounts/${id}/evaluation/warnings`, { method: "PUT", json: { floorDistance: "1500", dailyLossLeft: "400", email: true } }));
    expect(set.warnings).toEqual({ floorDistance: "1500.00", dailyLossLeft: "400.00", email: true, given: [] });
    // -300: 700 of the day's loss left, 1,700 above the floor: above both.
    await round(client, id, "5000", "4700", "2026-03-10T15:00:00Z");
    await checkWarnings(t.deps);
    expect((await json(await client.get(`/api/accounts/${id}/evaluation/warnings`))).warnings.given).toEqual([]);
    // Another -350: 650 lost today (350 left, under 400); 49,350 is 1,350 above the floor (under 1,500).
    await round(client, id, "5000", "4650", "2026-03-10T15:30:00Z");
    for (let i = 0; i < 3; i++) await Promise.all([checkWarnings(t.deps), checkWarnings(t.deps)]);
    const { given } = (await json(await client.get(`/api/accounts/${id}/evaluation/warnings`))).warnings;
    expect(given).toEqual([
      { kind: "daily_loss", day: "2026-03-10", value: "350.00", threshold: "400.00", at: now.toISOString(), emailed: true },
      { kind: "floor", day: "2026-03-10", value: "1350.00", threshold: "1500.00", at: now.toISOString(), emailed: true },
    ]);
    const mails = warningMails(email);
    expect(mails).toHaveLength(2);
    const name = (await json(await client.get(`/api/accounts/${id}`))).name as string;
    expect(mails.map((m) => m.subject).sort()).toEqual([`Test Firm "${name}": near the daily loss limit`, `Test Firm "${name}": near the drawdown floor`]);
    expect(mails.find((m) => m.subject.endsWith("floor"))!.text).toContain(`is 1350.00 USD above its drawdown floor, under the 1500.00 USD you set`);
    expect(mails[0]!.text).toContain(`http://localhost:3100/accounts/${id}`);
    // A further loss the same trading day: no second warning of either kind.
    await round(client, id, "5000", "4900", "2026-03-10T17:00:00Z");
    await checkWarnings(t.deps);
    expect((await json(await client.get(`/api/accounts/${id}/evaluation/warnings`))).warnings.given).toHaveLength(2);
    expect(warningMails(email)).toHaveLength(2);
    // The next trading day (from 17:00 Chicago), still under: warned again, once.
    now = new Date("2026-03-11T15:00:00Z");
    await round(client, id, "5000", "4990", "2026-03-11T14:00:00Z");
    await checkWarnings(t.deps);
    const next = (await json(await client.get(`/api/accounts/${id}/evaluation/warnings`))).warnings.given;
    expect(next.filter((g: { day: string }) => g.day === "2026-03-11").map((g: { kind: string }) => g.kind)).toEqual(["floor"]);
    expect(warningMails(email)).toHaveLength(3);
    now = new Date("2026-03-10T16:00:00Z");
  });

  it("without email: the notice in the app only; and thresholds that cannot apply are refused, nothing changed", async () => {
    const { client, id, email } = await trader("prop-warn-quiet");
    await json(await client.request(`/api/accounts/${id}/evaluation/warnings`, { method: "PUT", json: { floorDistance: "1900", dailyLossLeft: null, email: false } }));
    await round(client, id, "5000", "4850", "2026-03-10T15:00:00Z");
    await checkWarnings(t.deps);
    expect((await json(await client.get(`/api/accounts/${id}/evaluation/warnings`))).warnings.given).toEqual([expect.objectContaining({ kind: "floor", value: "1850.00", emailed: false })]);
    expect(warningMails(email)).toHaveLength(0);

    for (const [body, path] of [
      [{ floorDistance: "-5", dailyLossLeft: null, email: false }, "floorDistance"],
      [{ floorDistance: "0", dailyLossLeft: null, email: false }, "floorDistance"],
      [{ floorDistance: null, dailyLossLeft: "abc", email: false }, "dailyLossLeft"],
      [{ floorDistance: null, dailyLossLeft: null }, "email"],
      [{ floorDistance: null, dailyLossLeft: null, email: false, extra: 1 }, ""],
    ] as const) {
      const res = await client.request(`/api/accounts/${id}/evaluation/warnings`, { method: "PUT", json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (path) expect((await res.json()).error.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    // No daily loss limit: a daily threshold cannot apply.
    const rules = (await json(await client.get(`/api/accounts/${id}/evaluation`))).evaluation;
    const { accountId: _a, ...body } = rules;
    await json(await client.request(`/api/accounts/${id}/evaluation`, { method: "PUT", json: { ...body, dailyLossLimit: null } }));
    const refused = await client.request(`/api/accounts/${id}/evaluation/warnings`, { method: "PUT", json: { floorDistance: null, dailyLossLeft: "100", email: false } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields[0].path).toBe("dailyLossLeft");
    // The thresholds survived the rules' change, untouched by the refusals.
    expect((await json(await client.get(`/api/accounts/${id}/evaluation/warnings`))).warnings).toMatchObject({ floorDistance: "1900.00", dailyLossLeft: null, email: false });
    // Another trader's account: 404.
    const other = await signUp(t, "prop-warn-other");
    expect((await other.client.get(`/api/accounts/${id}/evaluation/warnings`)).status).toBe(404);
  });
});
