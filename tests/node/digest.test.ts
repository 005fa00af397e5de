// The weekly digest (docs/digest.md): its schedule's validation, its figures against the summary of the same
// week, delivery exactly once however many job runs overlap (a real SMTP server catching the mail), the zone's
// daylight-saving change, the one-click unsubscribe (RFC 8058), the reading when the model fails or hangs, and a
// refused address reported once and never retried. On the real Postgres.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createNodeMailer } from "../../lib/email/index.ts";
import { sendDueDigests } from "../../lib/digest/delivery.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import type { Deps } from "../../lib/deps.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { billingEnv, startPaymentServer } from "../support/payment-server.ts";
import { startFxServer } from "../support/fx-server.ts";
import { getWallet } from "../../lib/billing/wallet.ts";
import { startSmtpServer, type ReceivedMail, type SmtpTestServer } from "../support/smtp-server.ts";

let smtp: SmtpTestServer;
let stand: ProviderServer;
let t: TestApp;
const REFUSED = "refused-";
/** Monday 2026-11-23, 09:00 in New York: the digest of the week 2026-11-16 to 2026-11-22 is due at 08:00. */
const MONDAY = new Date("2026-11-23T14:00:00Z");

beforeAll(async () => {
  smtp = await startSmtpServer({ tls: "none", refuse: (address) => address.startsWith(REFUSED) });
  stand = await startProviderServer();
  const env = { ...stand.env, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "http://localhost:3100" };
  const probe = await testApp(inject("databaseUrl"), env);
  t = await testApp(inject("databaseUrl"), env, { mailer: await createNodeMailer(probe.config), peer: "per-request", now: () => MONDAY });
});
afterAll(async () => {
  await smtp?.close();
  await stand?.close();
});

/** The job at `now` (its own clock), as the scheduler runs it. */
const run = (now: Date, extra: Partial<Deps> = {}, readingTimeoutMs?: number) => sendDueDigests({ ...t.deps, now: () => now, ...extra }, { readingTimeoutMs });
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email) && m.subject.startsWith("Your week"));

/** A verified trader with a New York account and the digest on Mondays at 08:00 New York (or as given). */
async function trader(tag = "digest", digest: Record<string, unknown> = {}) {
  const { client, userId } = await signUp(t, tag);
  await t.deps.db.execute(sql`update users set email_verified = true where id = ${userId}::uuid`);
  const [{ email }] = rowsOf<{ email: string }>(await t.deps.db.execute(sql`select email from users where id = ${userId}::uuid`)) as [{ email: string }];
  const account = await client.post("/api/accounts", { name: `Digest ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone: "America/New_York" });
  const accountId = (await account.json()).id as string;
  const put = await client.request("/api/settings", { method: "PUT", json: { digest: { weekly: true, weekday: 1, hour: 8, zone: "America/New_York", ...digest } } });
  expect(put.status, await put.clone().text()).toBe(200);
  const trip = async (day: string, symbol: string, buy: string, sell: string) => {
    for (const [side, price, at] of [["buy", buy, "10:00"], ["sell", sell, "11:00"]] as const) {
      const res = await client.post("/api/fills", { accountId, symbol, side, quantity: "10", price, fees: "1", executedAt: `${day}T${at}:00-05:00` });
      expect(res.status, await res.clone().text()).toBe(201);
    }
  };
  return { client, userId, email, accountId, trip };
}

describe("the digest's schedule", () => {
  it("refuses an hour outside 0-23, an unknown weekday, a zone or provider it does not know, changing nothing", async () => {
    const { client } = await trader("digest-bad");
    const before = await (await client.get("/api/settings")).json();
    for (const [digest, path] of [
      [{ weekly: true, weekday: 1, hour: 24, zone: "Europe/Berlin" }, "digest.hour"],
      [{ weekly: true, weekday: 1, hour: -1, zone: "Europe/Berlin" }, "digest.hour"],
      [{ weekly: true, weekday: "monday", hour: 8, zone: "Europe/Berlin" }, "digest.weekday"],
      [{ weekly: true, weekday: 7, hour: 8, zone: "Europe/Berlin" }, "digest.weekday"],
      [{ weekly: true, weekday: 1, hour: 8, zone: "Mars/Olympus" }, "digest.zone"],
      [{ weekly: true, weekday: 1, hour: 8, zone: "Europe/Berlin", reading: "skynet" }, "digest.reading"],
    ] as const) {
      const res = await client.request("/api/settings", { method: "PUT", json: { digest } });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(body.error.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    expect(await (await client.get("/api/settings")).json()).toEqual(before);
  });
});

describe("the digest's figures", () => {
  it("equal the summary of the same week, with the best and worst trade, and no comparison for a week of one trading day", async () => {
    const a = await trader("digest-figures");
    await a.trip("2026-11-17", "AAPL", "100", "103"); // +28
    await a.trip("2026-11-19", "MSFT", "200", "195"); // -52
    await a.trip("2026-11-20", "NVDA", "50", "51.5"); // +13
    await a.trip("2026-11-23", "AMD", "10", "11"); // the send day itself: next week's
    const res = await a.client.post("/api/digest/preview", {});
    expect(res.status, await res.clone().text()).toBe(200);
    const preview = await res.json();
    expect(preview.figures.week).toEqual({ firstDay: "2026-11-16", lastDay: "2026-11-22", zone: "America/New_York", from: "2026-11-16T05:00:00.000Z", to: "2026-11-23T05:00:00.000Z" });
    const summary = await (await a.client.get(`/api/stats/summary?accountId=${a.accountId}&from=2026-11-16T05:00:00.000Z&to=2026-11-23T05:00:00.000Z`)).json();
    const [week] = preview.figures.figures;
    expect(week).toMatchObject({ currency: "USD", trades: summary.trades, wins: summary.wins, losses: summary.losses, netPnl: summary.netPnl, fees: summary.fees, winRate: summary.winRate });
    expect(week.netPnl).toBe("-11.00");
    expect(week.best).toMatchObject({ symbol: "AAPL", netPnl: "28.00" });
    expect(week.worst).toMatchObject({ symbol: "MSFT", netPnl: "-52.00" });
    expect(preview.figures.tradingDays).toBe(3);
    expect(preview.text).toContain("Net P&L -11.00 USD over 3 closed trades");
    expect(preview.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(preview.html).toContain("http://localhost:3100/trades/");

    const b = await trader("digest-one-day");
    await b.trip("2026-11-18", "AAPL", "100", "101");
    const one = await (await b.client.post("/api/digest/preview", {})).json();
    expect(one.figures).toMatchObject({ tradingDays: 1, comparable: false });
    expect(one.figures.figures[0].averageWeek).toBeNull();
    expect(one.text).toContain("One trading day this week: too little to compare or read into.");
  });
});

describe("the digest in a base currency", () => {
  it("gives one block in the base for a trader with accounts in two currencies, equal to the summary in the base", async () => {
    const fx = await startFxServer();
    try {
      const app = await testApp(inject("databaseUrl"), { ...fx.env }, { peer: "per-request", now: () => MONDAY });
      const { client } = await signUp(app, "digest-base");
      const make = async (currency: string) => (await (await client.post("/api/accounts", { name: `Base ${currency} ${crypto.randomUUID()}`, currency, startingBalance: "10000", timezone: "America/New_York" })).json()).id as string;
      const usd = await make("USD");
      const eur = await make("EUR");
      for (const [accountId, day, sell] of [[usd, "2026-11-17", "103"], [eur, "2026-11-18", "98"]] as const) {
        for (const [side, price, at] of [["buy", "100", "10:00"], ["sell", sell, "11:00"]] as const) {
          expect((await client.post("/api/fills", { accountId, symbol: "AAPL", side, quantity: "10", price, fees: "1", executedAt: `${day}T${at}:00-05:00` })).status).toBe(201);
        }
      }
      expect((await client.request("/api/settings", { method: "PUT", json: { baseCurrency: "EUR", digest: { weekly: true, weekday: 1, hour: 8, zone: "America/New_York" } } })).status).toBe(200);
      const res = await client.post("/api/digest/preview", {});
      expect(res.status, await res.clone().text()).toBe(200);
      const preview = await res.json();
      const summary = await (await client.get("/api/stats/summary?currency=base&from=2026-11-16T05:00:00.000Z&to=2026-11-23T05:00:00.000Z")).json();
      expect(preview.figures.figures).toHaveLength(1);
      expect(preview.figures.figures[0]).toMatchObject({ currency: "EUR", trades: 2, netPnl: summary.netPnl, winRate: summary.winRate });
    } finally {
      await fx.close();
    }
  });
});

describe("the wash-sale watch in the digest", () => {
  it("lists the USD losses a purchase on or after the send day would still wash, for a trader who asked for it only", async () => {
    const watching = await trader("digest-wash", { washWatch: true });
    const not = await trader("digest-no-wash");
    for (const u of [watching, not]) {
      await u.trip("2026-11-17", "MSFT", "100", "103");
      await u.trip("2026-11-18", "AAPL", "100", "99");
    }
    const preview = await (await watching.client.post("/api/digest/preview", {})).json();
    expect(preview.figures.washWatch).toEqual([expect.objectContaining({ symbol: "AAPL", soldAt: "2026-11-18", loss: "12.00", washableUntil: "2026-12-18" })]);
    expect(preview.text).toContain("WASH-SALE WATCH (US TAXES)");
    expect(preview.text).toContain("AAPL (Digest ");
    expect(preview.text).toContain("-12.00 USD realised on 2026-11-18. Buying AAPL again on or before 2026-12-18 would wash this loss.");
    const plain = await (await not.client.post("/api/digest/preview", {})).json();
    expect(plain.figures.washWatch).toBeNull();
    expect(plain.text).not.toContain("WASH-SALE");
  });
});

describe("delivery", () => {
  it("ten job runs at once send one mail per user, with the one-click unsubscribe headers; a later run sends nothing more", async () => {
    const users = await Promise.all([1, 2, 3].map(() => trader("digest-once")));
    await users[0]!.trip("2026-11-17", "AAPL", "100", "103");
    await Promise.all(Array.from({ length: 10 }, () => run(MONDAY)));
    await run(new Date(MONDAY.getTime() + 60 * 60_000));
    for (const u of users) {
      const mails = mailsTo(u.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toMatch(/^Your week 2026-11-16 to 2026-11-22/);
      expect(mails[0]!.headers["list-unsubscribe"]).toMatch(new RegExp(`^<http://localhost:3100/api/digest/unsubscribe\\?token=${u.userId}\\.[A-Za-z0-9_-]{32}>$`));
      expect(mails[0]!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
      expect(mails[0]!.html).toBeTruthy();
      const rows = rowsOf<{ status: string; week: string }>(await t.deps.db.execute(sql`select status, to_char(week, 'YYYY-MM-DD') as week from digest_sends where user_id = ${u.userId}::uuid`));
      expect(rows).toEqual([{ status: "sent", week: "2026-11-23" }]);
    }
    expect(mailsTo(users[0]!.email)[0]!.text).toContain("Net P&L +28.00 USD over 1 closed trade");
  });

  it("follows the zone across daylight-saving changes: 08:00 Berlin is 06:00 UTC in summer and 07:00 UTC in winter", async () => {
    const u = await trader("digest-dst", { weekday: 0, hour: 8, zone: "Europe/Berlin" });
    // Sunday 2026-10-25: clocks went back at 03:00. 06:30 UTC is 07:30 there: not yet.
    await run(new Date("2026-10-25T06:30:00Z"));
    expect(mailsTo(u.email)).toHaveLength(0);
    await run(new Date("2026-10-25T07:00:00Z"));
    await smtp.waitFor((m) => m.to.includes(u.email) && m.subject.startsWith("Your week"));
    expect(mailsTo(u.email)[0]!.subject).toMatch(/^Your week 2026-10-18 to 2026-10-24/);
    // Sunday 2026-03-29: clocks went forward at 02:00; 08:00 there is 06:00 UTC.
    const v = await trader("digest-dst-spring", { weekday: 0, hour: 8, zone: "Europe/Berlin" });
    await run(new Date("2026-03-29T05:59:00Z"));
    expect(mailsTo(v.email)).toHaveLength(0);
    await run(new Date("2026-03-29T06:00:00Z"));
    expect(mailsTo(v.email)).toHaveLength(1);
    // More than a day late, a week is not sent: the next one is.
    const w = await trader("digest-late", { weekday: 0, hour: 8, zone: "Europe/Berlin" });
    await run(new Date("2026-03-30T06:01:00Z"));
    expect(mailsTo(w.email)).toHaveLength(0);
  });

  it("one click unsubscribes (POST with the header's form, no session); an altered token is 404, a malformed one 400, changing nothing", async () => {
    const u = await trader("digest-unsub");
    const other = await trader("digest-unsub-other");
    await run(MONDAY);
    const link = mailsTo(u.email)[0]!.headers["list-unsubscribe"]!.slice(1, -1);
    const path = link.replace("http://localhost:3100", "");
    const token = new URL(link).searchParams.get("token")!;
    const anonymous = t.client();
    const form = (p: string) => anonymous.request(p, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect((await form(`/api/digest/unsubscribe?token=${altered}`)).status).toBe(404);
    expect((await form(`/api/digest/unsubscribe?token=${other.userId}.${token.split(".")[1]}`)).status).toBe(404);
    const bad = await form("/api/digest/unsubscribe?token=nonsense");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields[0].path).toBe("token");
    expect((await form("/api/digest/unsubscribe")).status).toBe(400);
    for (const c of [u, other]) expect((await (await c.client.get("/api/settings")).json()).digest.weekly).toBe(true);
    expect((await form(path)).status).toBe(204);
    expect((await form(path)).status).toBe(204);
    expect((await (await u.client.get("/api/settings")).json()).digest).toEqual({ weekly: false, weekday: 1, hour: 8, zone: "America/New_York" });
    expect((await (await other.client.get("/api/settings")).json()).digest.weekly).toBe(true);
    // Off: the next week's run sends it nothing.
    await run(new Date(MONDAY.getTime() + 7 * 86_400_000));
    expect(mailsTo(u.email)).toHaveLength(1);
    expect(mailsTo(other.email)).toHaveLength(2);
  });

  it("the reading: written by the trader's model, and when the model fails or hangs the figures go out alone, on time", async () => {
    const mk = async (tag: string, review: string) => {
      const u = await trader(tag, { reading: "openai" });
      expect((await u.client.request("/api/advisor/provider-keys/openai", { method: "PUT", json: { apiKey: `sk-good-${crypto.randomUUID().replaceAll("-", "")}` } })).status).toBe(200);
      expect((await u.client.request("/api/advisor/settings", { method: "PUT", json: { shareJournal: true } })).status).toBe(200);
      await u.trip("2026-11-17", "AAPL", "100", "103");
      await u.trip("2026-11-18", "MSFT", "100", "99");
      expect((await u.client.request(`/api/days/${u.accountId}/2026-11-18`, { method: "PUT", json: { review } })).status).toBe(200);
      return u;
    };
    const answer = `#answer:${Buffer.from("A calm week: the AAPL winner paid for the MSFT loser.").toString("base64url")}`;
    const good = await mk("digest-reading", `Patient entries. ${answer}`);
    const failing = await mk("digest-reading-fails", "Tired. #status:500 all week");
    const hanging = await mk("digest-reading-hangs", "Distracted. #hang");
    const started = Date.now();
    await run(MONDAY, {}, 1500);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(mailsTo(good.email)[0]!.text).toContain("A calm week: the AAPL winner paid for the MSFT loser.");
    for (const u of [failing, hanging]) {
      const [mail] = mailsTo(u.email) as [ReceivedMail];
      expect(mail.text).toContain("Net P&L +16.00 USD over 2 closed trades");
      expect(mail.text, mail.text).not.toContain("A reading by");
    }
  });

  it("a refused address fails its week once, is never retried, and is counted for the operator; without email configured the week fails too", async () => {
    const u = await trader(`${REFUSED}digest`);
    await run(MONDAY);
    const rows = async (userId: string) => rowsOf<{ status: string; attempts: number; error: string }>(await t.deps.db.execute(sql`select status, attempts, error from digest_sends where user_id = ${userId}::uuid`));
    expect(await rows(u.userId)).toEqual([{ status: "failed", attempts: 1, error: expect.stringContaining("550") }]);
    expect((await rows(u.userId))[0]!.error).not.toContain("@");
    await run(new Date(MONDAY.getTime() + 2 * 60 * 60_000));
    expect(await rows(u.userId)).toEqual([expect.objectContaining({ status: "failed", attempts: 1 })]);

    const v = await trader("digest-no-email");
    await run(MONDAY, { mailer: undefined });
    expect(await rows(v.userId)).toEqual([{ status: "failed", attempts: 1, error: "email is not configured" }]);
    await run(new Date(MONDAY.getTime() + 60 * 60_000));
    expect(mailsTo(v.email)).toHaveLength(0);
  });
});

describe("the reading, metered", () => {
  it("with billing on, charges the reading's tokens like a turn; without credits the digest goes without one and costs nothing", async () => {
    const payments = await startPaymentServer();
    try {
      const env = { ...stand.env, ...billingEnv(payments), SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "http://localhost:3100" };
      const probe = await testApp(inject("databaseUrl"), env);
      const metered = await testApp(inject("databaseUrl"), env, { mailer: await createNodeMailer(probe.config), peer: "per-request", now: () => MONDAY });
      const mk = async (tag: string) => {
        const { client, userId } = await signUp(metered, tag);
        await metered.deps.db.execute(sql`update users set email_verified = true where id = ${userId}::uuid`);
        const [{ email }] = rowsOf<{ email: string }>(await metered.deps.db.execute(sql`select email from users where id = ${userId}::uuid`)) as [{ email: string }];
        const accountId = (await (await client.post("/api/accounts", { name: `Metered ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone: "America/New_York" })).json()).id as string;
        expect((await client.request("/api/settings", { method: "PUT", json: { digest: { weekly: true, weekday: 1, hour: 8, zone: "America/New_York", reading: "openai" } } })).status).toBe(200);
        expect((await client.request("/api/advisor/provider-keys/openai", { method: "PUT", json: { apiKey: `sk-good-${crypto.randomUUID().replaceAll("-", "")}` } })).status).toBe(200);
        for (const [day, sell] of [["2026-11-17", "103"], ["2026-11-18", "99"]] as const) {
          for (const [side, price, at] of [["buy", "100", "10:00"], ["sell", sell, "11:00"]] as const) {
            expect((await client.post("/api/fills", { accountId, symbol: "AAPL", side, quantity: "10", price, fees: "1", executedAt: `${day}T${at}:00-05:00` })).status).toBe(201);
          }
        }
        return { userId, email };
      };
      const rich = await mk("digest-metered-rich");
      const poor = await mk("digest-metered-poor");
      await metered.deps.db.execute(sql`select wallet_apply(${rich.userId}::uuid, 'admin_grant', 5000::bigint, 0, null, 'test', null)`);
      await sendDueDigests({ ...metered.deps, now: () => MONDAY });
      expect(mailsTo(rich.email)[0]!.text).toContain("(A reading by gpt-5.1 on your own key.)");
      const wallet = await getWallet(metered.deps, rich.userId);
      expect(wallet.reserved).toBe(0);
      expect(wallet.balance).toBeLessThan(5000);
      expect(wallet.balance).toBeGreaterThan(4000);
      const [mail] = mailsTo(poor.email) as [ReceivedMail];
      expect(mail.text).toContain("Net P&L +16.00 USD over 2 closed trades");
      expect(mail.text).not.toContain("A reading by");
      expect(await getWallet(metered.deps, poor.userId)).toMatchObject({ balance: 0, reserved: 0 });
    } finally {
      await payments.close();
    }
  });
});
