import { eq } from "drizzle-orm";
import pg from "pg";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { describe, expect, inject, it } from "vitest";
import { sessions, users } from "../../lib/db/schema.ts";
import { testApp } from "../support/app.ts";
import { PASSWORD, uniqueEmail } from "../support/client.ts";
import { runCliProcess } from "../support/cli.ts";

const cli = (args: string[], stdin = "") => runCliProcess(inject("databaseUrl"), args, stdin);

describe("operator CLI", () => {
  it("create-user, then reset-password from stdin ends every session; the password is never echoed", async () => {
    const t = await testApp(inject("databaseUrl"));
    const email = uniqueEmail("cli");
    const created = await cli(["create-user", email], `${PASSWORD}\n`);
    expect(created).toMatchObject({ code: 0 });
    expect(created.out).not.toContain(PASSWORD);

    const client = t.client();
    expect((await client.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);

    const fresh = "operator chosen secret é";
    const reset = await cli(["reset-password", email.toUpperCase()], `${fresh}\n`);
    expect(reset.code).toBe(0);
    expect(reset.out).toContain("1 session(s) ended");
    expect(reset.out).not.toContain(fresh);
    expect((await client.get("/api/auth/me")).status).toBe(401);
    expect((await t.client().post("/api/auth/login", { email, password: PASSWORD })).status).toBe(401);
    expect((await t.client().post("/api/auth/login", { email, password: fresh })).status).toBe(200);
  });

  it("refuses a password outside 8 to 72 characters and changes nothing", async () => {
    const email = uniqueEmail("cli-short");
    expect((await cli(["create-user", email], "short\n")).code).toBe(1);
    const t = await testApp(inject("databaseUrl"));
    expect(await t.deps.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it("promote-admin and revoke-sessions (demote-admin: the next test, on its own database)", async () => {
    const t = await testApp(inject("databaseUrl"));
    const email = uniqueEmail("cli-admin");
    const client = t.client();
    const { user } = await (await client.post("/api/auth/register", { email, password: PASSWORD })).json();

    expect((await cli(["promote-admin", email])).code).toBe(0);
    expect((await (await client.get("/api/auth/me")).json()).user.isAdmin).toBe(true);

    const revoked = await cli(["revoke-sessions", email]);
    expect(revoked.code).toBe(0);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });

  it("writes promote and demote to the audit log, and refuses to demote the last administrator, as the console does", async () => {
    // Its own database: who the admins are must not depend on other test files.
    const db = await createMigratedDatabase("journal_cli_last_admin");
    try {
      const [first, second] = [uniqueEmail("admin-one"), uniqueEmail("admin-two")];
      for (const email of [first, second]) {
        expect((await runCliProcess(db.url, ["create-user", email], `${PASSWORD}\n`)).code).toBe(0);
        expect((await runCliProcess(db.url, ["promote-admin", email])).code).toBe(0);
      }
      expect((await runCliProcess(db.url, ["demote-admin", second])).code).toBe(0);
      const refused = await runCliProcess(db.url, ["demote-admin", first]);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain("is the only administrator");
      expect((await runCliProcess(db.url, ["list-admins"])).out.trim()).toBe(first);
      const pool = new pg.Pool({ connectionString: db.url, max: 1 });
      const audit = (await pool.query("select actor_id, actor_email, action, target_email from admin_audit order by at")).rows;
      await pool.end();
      expect(audit).toEqual([
        { actor_id: null, actor_email: "operator (CLI)", action: "promote", target_email: first },
        { actor_id: null, actor_email: "operator (CLI)", action: "promote", target_email: second },
        { actor_id: null, actor_email: "operator (CLI)", action: "demote", target_email: second },
      ]);
    } finally {
      await dropDatabase(db.name);
    }
  });

  it("explains unknown commands and users with exit code 1", async () => {
    expect((await cli(["frobnicate"])).code).toBe(1);
    const missing = await cli(["promote-admin", uniqueEmail("ghost")]);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain("No user");
  });
});
