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
