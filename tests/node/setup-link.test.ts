// The first administrator by the one-time setup link a Node start prints when there is none (lib/admin/setup.ts,
// docs/admin.md): on its own database, since "no administrator" must not depend on other test files.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeServer } from "../../functions/node-server.ts";
import { PASSWORD, TestClient, uniqueEmail } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startTestServer } from "../support/node-server.ts";

let db: { name: string; url: string };
beforeAll(async () => {
  db = await createMigratedDatabase("journal_setup_link");
});
afterAll(async () => {
  await dropDatabase(db.name);
});

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

async function signedUp(server: NodeServer, tag: string) {
  const client = new TestClient(server.url);
  const email = uniqueEmail(tag);
  expect((await client.post("/api/auth/register", { email, password: PASSWORD })).status).toBe(201);
  return { client, email };
}

describe("the setup link", () => {
  it("makes exactly one signed-in user the first administrator, once, and is audited", async () => {
    // On Postgres the operator CLI runs beside the server: no link unless asked for.
    const plain = await startTestServer({ DATABASE_URL: db.url });
    try {
      expect(plain.setupToken).toBeNull();
      const { client } = await signedUp(plain, "nolink");
      const res = await client.post("/api/admin/setup", { token: "x".repeat(43) });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("NOT_FOUND");
    } finally {
      await plain.close();
    }

    const server = await startTestServer({ DATABASE_URL: db.url }, { setupLink: true });
    try {
      const token = server.setupToken!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await new TestClient(server.url).post("/api/admin/setup", { token })).status).toBe(401);
      const a = await signedUp(server, "first-a");
      const b = await signedUp(server, "first-b");
      for (const [body, status] of [[{}, 400], [{ token: "" }, 400], [{ token, extra: 1 }, 400], [{ token: `${token}x` }, 403]] as const) {
        const res = await a.client.post("/api/admin/setup", body);
        expect(res.status, JSON.stringify(body)).toBe(status);
      }
      // A wrong token closes nothing; two claims at once: one administrator.
      const [ra, rb] = await Promise.all([a.client.post("/api/admin/setup", { token }), b.client.post("/api/admin/setup", { token })]);
      const statuses = [ra.status, rb.status].sort();
      expect(statuses[0]).toBe(200);
      expect([404, 409]).toContain(statuses[1]);
      const winner = ra.status === 200 ? a : b;
      expect((await (ra.status === 200 ? ra : rb).json()).user).toMatchObject({ email: winner.email, isAdmin: true });
      expect(await query("select email from users where is_admin")).toEqual([{ email: winner.email }]);
      expect(await query("select actor_email, action, target_email from admin_audit")).toEqual([
        { actor_email: "operator (setup link)", action: "promote", target_email: winner.email },
      ]);
      expect((await winner.client.get("/api/admin/users")).status).toBe(200);
      // Used: closed for good.
      expect((await b.client.post("/api/admin/setup", { token })).status).toBe(404);
    } finally {
      await server.close();
    }

    // With an administrator, a start opens no link.
    const later = await startTestServer({ DATABASE_URL: db.url }, { setupLink: true });
    try {
      expect(later.setupToken).toBeNull();
    } finally {
      await later.close();
    }
  });
});
