import { eq } from "drizzle-orm";
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

  it("promote-admin, demote-admin and revoke-sessions", async () => {
    const t = await testApp(inject("databaseUrl"));
    const email = uniqueEmail("cli-admin");
    const client = t.client();
    const { user } = await (await client.post("/api/auth/register", { email, password: PASSWORD })).json();

    expect((await cli(["promote-admin", email])).code).toBe(0);
    expect((await (await client.get("/api/auth/me")).json()).user.isAdmin).toBe(true);
    expect((await cli(["demote-admin", email])).code).toBe(0);
    expect((await (await client.get("/api/auth/me")).json()).user.isAdmin).toBe(false);

    const revoked = await cli(["revoke-sessions", email]);
    expect(revoked.code).toBe(0);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });

  it("explains unknown commands and users with exit code 1", async () => {
    expect((await cli(["frobnicate"])).code).toBe(1);
    const missing = await cli(["promote-admin", uniqueEmail("ghost")]);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain("No user");
  });
});
