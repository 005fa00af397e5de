// Credit holds for advisor turns, on the real Postgres: concurrent holds never over-commit a wallet, a hold
// is charged at most once and never above itself, and a hold whose process died is released by the job.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { getWallet, placeHold, releaseExpiredHolds, releaseHold, settleHold } from "../../lib/billing/wallet.ts";
import { AppError } from "../../lib/errors.ts";
import { testApp, signUp, type TestApp } from "../support/app.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";

const url = () => inject("databaseUrl");
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function funded(t: TestApp, credits: number) {
  const { client, userId } = await signUp(t, "credits");
  await t.deps.db.execute(sql`select wallet_apply(${userId}::uuid, 'admin_grant', ${credits}::bigint, 0, null, 'test', null)`);
  return { client, userId };
}

async function movementsSum(t: TestApp, userId: string) {
  const [row] = rowsOf<{ balance: string; reserved: string }>(
    await t.deps.db.execute(sql`select coalesce(sum(amount), 0)::text as balance, coalesce(sum(reserved_change), 0)::text as reserved
      from wallet_movements where user_id = ${userId}`),
  );
  return { balance: Number(row!.balance), reserved: Number(row!.reserved) };
}

describe("credit holds", () => {
  it("200 concurrent holds on a wallet of 50 credits: never more held than the balance, the rest refused with 402", async () => {
    const t = await testApp(url());
    const { userId } = await funded(t, 50);
    const wants = Array.from({ length: 200 }, (_, i) => 1 + (i % 3));
    const results = await Promise.allSettled(wants.map((w) => placeHold(t.deps, userId, crypto.randomUUID(), w)));
    const held = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.amount] : []));
    const refused = results.filter((r) => r.status === "rejected");
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "INSUFFICIENT_CREDITS" });
    expect(held.reduce((a, b) => a + b, 0)).toBe(50);
    expect(await getWallet(t.deps, userId)).toEqual({ balance: 50, reserved: 50, available: 0 });
    // The history adds up to the wallet.
    expect(await movementsSum(t, userId)).toEqual({ balance: 50, reserved: 50 });
  });

  it("holds at most what is available, refuses below MIN_RESERVATION_CREDITS, and is idempotent by hold id", async () => {
    const t = await testApp(url(), { MIN_RESERVATION_CREDITS: "5" });
    const { userId } = await funded(t, 12);
    const id = crypto.randomUUID();
    expect(await placeHold(t.deps, userId, id, 100)).toMatchObject({ status: "held", amount: 12 });
    expect(await placeHold(t.deps, userId, id, 100)).toMatchObject({ status: "held", amount: 12 });
    expect(await getWallet(t.deps, userId)).toEqual({ balance: 12, reserved: 12, available: 0 });
    await releaseHold(t.deps, id);
    await placeHold(t.deps, userId, crypto.randomUUID(), 8);
    const refused = await placeHold(t.deps, userId, crypto.randomUUID(), 3).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "INSUFFICIENT_CREDITS", message: expect.stringContaining("4 available, at least 5 needed") });
  });

  it("settling charges at most the hold and releases the rest; a second settle or a release after it changes nothing", async () => {
    const t = await testApp(url());
    const { userId } = await funded(t, 100);
    const hold = await placeHold(t.deps, userId, crypto.randomUUID(), 30);
    expect(await settleHold(t.deps, hold.id, 45.2)).toEqual({ status: "settled", charged: 30, released: 0 });
    expect(await getWallet(t.deps, userId)).toEqual({ balance: 70, reserved: 0, available: 70 });
    expect(await settleHold(t.deps, hold.id, 10)).toEqual({ status: "settled", charged: 30, released: 0 });
    expect(await releaseHold(t.deps, hold.id)).toEqual({ status: "settled", charged: 30, released: 0 });
    const small = await placeHold(t.deps, userId, crypto.randomUUID(), 30);
    // A charge of 7.1 credits rounds up to 8; the other 22 go back.
    expect(await settleHold(t.deps, small.id, 7.1)).toEqual({ status: "settled", charged: 8, released: 22 });
    expect(await getWallet(t.deps, userId)).toEqual({ balance: 62, reserved: 0, available: 62 });
    // Concurrent settles of one hold: one charge.
    const racing = await placeHold(t.deps, userId, crypto.randomUUID(), 20);
    await Promise.all(Array.from({ length: 10 }, () => settleHold(t.deps, racing.id, 20)));
    expect(await getWallet(t.deps, userId)).toEqual({ balance: 42, reserved: 0, available: 42 });
    expect(await movementsSum(t, userId)).toEqual({ balance: 42, reserved: 0 });
    const rows = rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from wallet_movements where hold_id = ${racing.id} and kind = 'charge'`));
    expect(rows[0]!.n).toBe(1);
    // The history is append-only.
    await expect(t.deps.db.execute(sql`update wallet_movements set amount = 0 where user_id = ${userId}`)).rejects.toThrow();
  });

  it("a hold whose process was killed (kill -9) is released by the job once its time has passed", async () => {
    // On a database of its own: the job releases every expired hold, and the clock is moved past them all.
    const db = await createMigratedDatabase("journal_holds");
    cleanups.push(() => dropDatabase(db.name));
    const t = await testApp(db.url);
    const { userId } = await funded(t, 100);
    const holdId = crypto.randomUUID();
    const child = spawn(process.execPath, [fileURLToPath(new URL("../support/hold-and-die.ts", import.meta.url)), db.url, userId, holdId], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => d.toString().includes("held") && resolve());
      child.on("exit", (code) => reject(new Error(`the child exited with ${code}`)));
    });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(await getWallet(t.deps, userId)).toEqual({ balance: 100, reserved: 40, available: 60 });
    // Before its time nothing happens; after RESERVATION_TTL_MS the job gives the credits back.
    expect(await releaseExpiredHolds(t.deps)).toBe(0);
    const later = { ...t.deps, now: () => new Date(Date.now() + t.config.RESERVATION_TTL_MS + 1000) };
    expect(await releaseExpiredHolds(later)).toBeGreaterThanOrEqual(1);
    expect(await getWallet(t.deps, userId)).toEqual({ balance: 100, reserved: 0, available: 100 });
    const [hold] = rowsOf<{ status: string }>(await t.deps.db.execute(sql`select status from credit_holds where id = ${holdId}`));
    expect(hold!.status).toBe("expired");
    // A settle arriving after the expiry changes nothing.
    expect(await settleHold(t.deps, holdId, 40)).toEqual({ status: "expired", charged: 0, released: 0 });
  });
});
