import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import jobs from "../../functions/workers/jobs.ts";
import { insertUser, testSql } from "./sql.ts";

// The jobs Worker's cron handler, inside workerd, deleting through the serverless driver over HTTP.

it("the */15 cron purges expired sessions and keeps live ones", async () => {
  const sql = testSql();
  const user = await insertUser("jobs");
  const id = (name: string) => `${name}-${crypto.randomUUID()}`;
  const [idle, absolute, live] = [id("idle-expired"), id("absolute-expired"), id("live")];
  await sql`
    insert into sessions (id, secret_hash, user_id, expires_at, absolute_expires_at) values
      (${idle}, 'h', ${user.id}, now() - interval '1 minute', now() + interval '1 day'),
      (${absolute}, 'h', ${user.id}, now() + interval '1 hour', now() - interval '1 minute'),
      (${live}, 'h', ${user.id}, now() + interval '1 hour', now() + interval '1 day')`;

  const ctx = createExecutionContext();
  await jobs.scheduled(createScheduledController({ cron: "*/15 * * * *" }), { ...env }, ctx);
  await waitOnExecutionContext(ctx);

  const left = await sql`select id from sessions where user_id = ${user.id} order by id`;
  expect(left.map((r) => r.id)).toEqual([live]);
});

it("a cron run promotes SEED_ADMIN_EMAIL while the instance has no admin, and not once another admin exists", async () => {
  const sql = testSql();
  const [{ admins }] = (await sql`select count(*)::int as admins from users where is_admin`) as [{ admins: number }];
  expect(admins).toBe(0);
  const seed = await insertUser("seed-admin");
  const other = await insertUser("other-admin");
  const cron = async () => {
    const ctx = createExecutionContext();
    // Upper case in the variable: the address is compared as stored, lowercased.
    await jobs.scheduled(createScheduledController({ cron: "*/15 * * * *" }), { ...env, SEED_ADMIN_EMAIL: seed.email.toUpperCase() }, ctx);
    await waitOnExecutionContext(ctx);
  };
  const isAdmin = async (id: string) => ((await sql`select is_admin from users where id = ${id}`) as [{ is_admin: boolean }])[0].is_admin;
  try {
    await cron();
    expect(await isAdmin(seed.id)).toBe(true);

    // Another admin, then the seed user demoted: a later run does not undo the demotion.
    await sql`update users set is_admin = true where id = ${other.id}`;
    await sql`update users set is_admin = false where id = ${seed.id}`;
    await cron();
    expect(await isAdmin(seed.id)).toBe(false);
  } finally {
    await sql`update users set is_admin = false where id in (${seed.id}, ${other.id})`;
  }
});

it("answers an /api/ path no group serves with the 404 envelope (wrangler.toml routes the rest of /api/* here)", async () => {
  const ctx = createExecutionContext();
  const res = await jobs.fetch(new Request("https://journal.example.com/api/no-such-group/x"), { ...env }, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(404);
  const body = (await res.json()) as { error: { code: string; requestId: string } };
  expect(body.error.code).toBe("NOT_FOUND");
  expect(res.headers.get("X-Request-Id")).toBe(body.error.requestId);
});

it("the */5 cron releases credit holds past their time, through the SQL functions over HTTP", async () => {
  const sql = testSql();
  const user = await insertUser("holds");
  await sql`select wallet_apply(${user.id}::uuid, 'admin_grant', 100, 0, null, 'test', null)`;
  const expired = crypto.randomUUID();
  const live = crypto.randomUUID();
  await sql`select * from credit_hold_place(${expired}::uuid, ${user.id}::uuid, 30, 1, now() - interval '1 minute')`;
  await sql`select * from credit_hold_place(${live}::uuid, ${user.id}::uuid, 20, 1, now() + interval '10 minutes')`;

  const ctx = createExecutionContext();
  await jobs.scheduled(createScheduledController({ cron: "*/5 * * * *" }), { ...env }, ctx);
  await waitOnExecutionContext(ctx);

  const holds = await sql`select id, status from credit_holds where user_id = ${user.id} order by amount`;
  expect(holds.map((h) => [h.id, h.status])).toEqual([
    [live, "held"],
    [expired, "expired"],
  ]);
  const [wallet] = await sql`select balance::int, reserved::int from wallets where user_id = ${user.id}`;
  expect(wallet).toEqual({ balance: 100, reserved: 20 });
});
