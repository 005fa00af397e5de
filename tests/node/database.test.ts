import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { users, sessions } from "../../lib/db/schema.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { rowsOf } from "../../lib/db/migrate.ts";
import type { DbHandle } from "../../lib/db/client.ts";
import { purgeExpiredSessions, runJobs, startScheduler } from "../../lib/jobs/index.ts";
import { testDeps } from "../support/deps.ts";
import { testConfig } from "../support/env.ts";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createNodeDb(inject("databaseUrl"), { poolSize: 4, transactionPooler: false });
});
afterAll(() => handle.close());

async function preparedStatementNames(transactionPooler: boolean): Promise<string[]> {
  // One connection, so the statement and the catalogue query share a server session.
  const h = await createNodeDb(inject("databaseUrl"), { poolSize: 1, transactionPooler });
  try {
    const byEmail = h.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, sql.placeholder("email")))
      .prepare("users_by_email");
    await byEmail.execute({ email: "nobody@example.com" });
    const rows = rowsOf<{ name: string }>(await h.db.execute(sql`select name from pg_prepared_statements`));
    return rows.map((r) => r.name);
  } finally {
    await h.close();
  }
}

describe("the node-postgres client", () => {
  it("keeps named prepared statements on a direct connection", async () => {
    expect(await preparedStatementNames(false)).toContain("users_by_email");
  });

  it("uses no named prepared statements behind a transaction pooler", async () => {
    expect(await preparedStatementNames(true)).toEqual([]);
  });
});

async function makeUser() {
  const [user] = await handle.db
    .insert(users)
    .values({ email: `u-${crypto.randomUUID()}@example.com`, passwordHash: "x" })
    .returning();
  return user!;
}

describe("the purge-expired-sessions job", () => {
  it("removes sessions past their idle or absolute expiry and keeps live ones", async () => {
    const user = await makeUser();
    const now = new Date();
    const past = new Date(now.getTime() - 60_000);
    const future = new Date(now.getTime() + 3_600_000);
    const id = () => crypto.randomUUID();
    const idle = id(), absolute = id(), live = id();
    await handle.db.insert(sessions).values([
      { id: idle, secretHash: "h", userId: user.id, expiresAt: past, absoluteExpiresAt: future },
      { id: absolute, secretHash: "h", userId: user.id, expiresAt: future, absoluteExpiresAt: past },
      { id: live, secretHash: "h", userId: user.id, expiresAt: future, absoluteExpiresAt: future },
    ]);

    const outcome = await runJobs(testDeps(testConfig(), handle), [purgeExpiredSessions]);
    expect(outcome["purge-expired-sessions"]).toBeGreaterThanOrEqual(2);
    const left = await handle.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    expect(left.map((s) => s.id)).toEqual([live]);
  });

  it("is run by the in-process scheduler", async () => {
    const user = await makeUser();
    const past = new Date(Date.now() - 1000);
    const stale = crypto.randomUUID();
    await handle.db.insert(sessions).values({ id: stale, secretHash: "h", userId: user.id, expiresAt: past, absoluteExpiresAt: past });
    const scheduler = startScheduler(testDeps(testConfig(), handle), [purgeExpiredSessions], 10);
    try {
      await expect
        .poll(async () => (await handle.db.select().from(sessions).where(eq(sessions.id, stale))).length, { timeout: 5000 })
        .toBe(0);
    } finally {
      scheduler.stop();
    }
  });

  it("reports a failing job without stopping the others", async () => {
    const failing = { ...purgeExpiredSessions, name: "always-fails", run: async () => Promise.reject(new Error("nope")) };
    const outcome = await runJobs(testDeps(testConfig(), handle), [failing, purgeExpiredSessions]);
    expect(outcome["always-fails"]).toBe("failed");
    expect(typeof outcome["purge-expired-sessions"]).toBe("number");
  });
});
