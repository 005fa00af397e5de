// Sign-in lockout (docs/auth.md, "Lockout"): ten failed sign-ins of one email in 15 minutes lock its sign-in
// (429 with Retry-After, however right the password), from any client; an unknown email answers exactly the
// same; the failures leave the window after 15 minutes; the operator CLI lifts it. On the real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";
import { runCliProcess } from "../support/cli.ts";

const url = () => inject("databaseUrl");
const PASSWORD = "correct horse battery staple";

async function setup() {
  const j = await journal(url());
  const email = `locked-${crypto.randomUUID()}@example.com`;
  const client = j.anonymous();
  expect((await client.post("/api/auth/register", { email, password: PASSWORD })).status).toBe(201);
  // Each attempt from a client of its own (a peer address per request): the per-client limit is not what stops them.
  const attempt = (who: string, password: string) => j.anonymous().post("/api/auth/login", { email: who, password });
  return { ...j, email, attempt };
}

describe("sign-in lockout", () => {
  it("ten failures from many clients lock the email: the right password waits (429, Retry-After); an unknown email the same; lifted by the CLI", async () => {
    const t = await setup();
    const unknown = `nobody-${crypto.randomUUID()}@example.com`;
    for (let i = 0; i < 10; i++) {
      expect((await t.attempt(t.email, `wrong password ${i}`)).status).toBe(401);
      expect((await t.attempt(unknown, `wrong password ${i}`)).status).toBe(401);
    }
    const locked = await t.attempt(t.email, PASSWORD);
    expect(locked.status).toBe(429);
    const retry = Number(locked.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(850);
    expect(retry).toBeLessThanOrEqual(900);
    const body = (await locked.json()).error;
    expect(body).toMatchObject({ code: "RATE_LIMITED", message: "Too many failed sign-ins for this email. Try again in 15 minutes." });
    // An unknown email: the same status, code and message.
    const other = await t.attempt(unknown, "anything at all");
    expect(other.status).toBe(429);
    expect((await other.json()).error).toMatchObject({ code: body.code, message: body.message });
    // Case does not get round it.
    expect((await t.attempt(t.email.toUpperCase(), PASSWORD)).status).toBe(429);

    const cli = await runCliProcess(url(), ["unlock-sign-in", t.email]);
    expect(cli.code, cli.out).toBe(0);
    expect(cli.out).toContain(`Sign-in of ${t.email} unlocked (10 failed sign-in(s) forgotten).`);
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(200);
    expect((await t.attempt(unknown, "anything at all")).status).toBe(429);
  });

  it("nine failures do not lock; failures older than 15 minutes no longer count", async () => {
    const t = await setup();
    for (let i = 0; i < 9; i++) expect((await t.attempt(t.email, `wrong password ${i}`)).status).toBe(401);
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(200);
    expect((await t.attempt(t.email, "wrong password 10")).status).toBe(401);
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(429);
    // A quarter of an hour later (the failures dated back), sign-in works again.
    await t.db.execute(sql`update sign_in_failures set failed_at = failed_at - interval '15 minutes 1 second'
      where key = encode(sha256(convert_to(${t.email.toLowerCase()}, 'UTF8')), 'hex')`);
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(200);
  });
});
