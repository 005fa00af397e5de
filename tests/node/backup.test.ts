// An operator's backup and restore (docs/operations.md, "Backups and restore"), done exactly as documented
// with Debian's pg_dump and pg_restore against the real entrypoint: the restored instance must be the same
// journal, not just the same tables.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { readProcessEnv } from "../../lib/config/index.ts";
import { PASSWORD, TestClient, uniqueEmail } from "../support/client.ts";
import { FIRST_STEPS_PASSWORD, GENERIC_HEADER, signUpAndImport } from "../support/csv.ts";
import { createDatabase, createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { freePort, runEntrypointToExit, startEntrypoint } from "../support/entrypoint.ts";
import { ADMIN_DATABASE_URL, baseTestEnv } from "../support/env.ts";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "journal-backup-"));
const databases: string[] = [];
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  for (const name of databases) await dropDatabase(name);
});

async function environment(databaseUrl: string): Promise<Record<string, string>> {
  const { PATH } = await readProcessEnv({ dotenvPath: false });
  // The market-data provider is a closed port: the key save fails transiently, so the key is stored (sealed)
  // with verified false, and nothing leaves the machine.
  return { PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: databaseUrl, MARKET_DATA_BASE_URL: `http://127.0.0.1:${await freePort()}` };
}

/** What a trader sees of their journal: the ledger, the trades, the statistics and their market-data key. */
async function journalOf(client: TestClient, accountId: string) {
  const read = async (path: string) => {
    const res = await client.get(path);
    expect(res.status, path).toBe(200);
    return res.json();
  };
  return {
    ledger: await read(`/api/ledger/${accountId}?pageSize=100`),
    trades: await read(`/api/trades?accountId=${accountId}`),
    summary: await read(`/api/stats/summary?accountId=${accountId}`),
    key: await read("/api/advisor/market-data-key"),
  };
}

/** A trader's journal with an import, a deposit and a stored (sealed) key, on the server at `url`. */
async function writeJournal(url: string) {
  const client = new TestClient(url);
  const { email, accountId } = await signUpAndImport(client);
  expect((await client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount: "25000", occurredAt: "2026-03-01T14:00:00Z", note: "Funding" })).status).toBe(201);
  const saved = await client.request("/api/advisor/market-data-key", { method: "PUT", json: { apiKey: "md-key-kept-in-the-backup-0042" } });
  expect(saved.status).toBe(200);
  expect(await saved.json()).toMatchObject({ configured: true, keyHintTail: "0042", verified: false });
  return { client, email, accountId, before: await journalOf(client, accountId) };
}

/** The restored journal: the old session, a fresh sign-in, the same reads, and a further import. */
async function expectSameJournal(url: string, written: Awaited<ReturnType<typeof writeJournal>>) {
  // The session cookie issued before the backup still works (same SESSION_SECRET, sessions restored)...
  const returning = new TestClient(url);
  for (const [name, value] of written.client.cookies) returning.cookies.set(name, value);
  expect((await returning.get("/api/auth/me")).status).toBe(200);
  // ...and the password signs in (its hash restored).
  const client = new TestClient(url);
  expect((await client.post("/api/auth/login", { email: written.email, password: FIRST_STEPS_PASSWORD })).status).toBe(200);
  expect(await journalOf(client, written.accountId)).toEqual(written.before);
  // The restored database takes new writes: its functions, triggers and indexes came back with it.
  const form = new FormData();
  form.set("file", new Blob([`${GENERIC_HEADER}\r\n2026-03-03T09:31:00,MSFT,BUY,10,400,1,E9\r\n`]), "after-restore.csv");
  form.set("request", JSON.stringify({ accountId: written.accountId, presetId: "generic" }));
  const preview = await client.request("/api/csv-import/preview", { method: "POST", body: form });
  expect(preview.status).toBe(201);
  const commit = await client.post("/api/csv-import/commit", { importId: ((await preview.json()) as { importId: string }).importId });
  expect(commit.status).toBe(200);
  const ledger = (await (await client.get(`/api/ledger/${written.accountId}?pageSize=100`)).json()) as { entries: Array<{ amount: string }> };
  expect(ledger.entries.length).toBe(written.before.ledger.entries.length + 1);
  expect(ledger.entries[0]!.amount).toBe("-4001.00");
}

describe("backups and restore (docs/operations.md)", () => {
  it("pg_dump of a live instance, restored with pg_restore into a new instance's database made empty, is the same journal", async () => {
    const source = await createDatabase("journal_backup");
    // A new stack's api has already migrated its empty database before the operator restores into it.
    const target = await createMigratedDatabase("journal_restore");
    databases.push(source.name, target.name);
    const env = await environment(source.url);

    const live = await startEntrypoint(env);
    let written;
    try {
      written = await writeJournal(live.url);
      // Taken while the instance runs: pg_dump reads one consistent snapshot.
      const dump = join(scratch, "journal.dump");
      await run("pg_dump", ["--format=custom", "--no-owner", `--file=${dump}`, `--dbname=${source.url}`]);
      // As documented: the migrated database replaced by an empty one, then the dump restored into it.
      await run("dropdb", [`--maintenance-db=${ADMIN_DATABASE_URL}`, "--force", target.name]);
      await run("createdb", [`--maintenance-db=${ADMIN_DATABASE_URL}`, target.name]);
      await run("pg_restore", ["--no-owner", "--single-transaction", `--dbname=${target.url}`, dump]);
    } finally {
      await live.stop();
    }

    const restored = await startEntrypoint({ ...env, DATABASE_URL: target.url });
    try {
      // The start-up canary opened the restored key (a start that cannot open them stops: below).
      expect(restored.output()).not.toMatch(/do not open|startup failed/);
      await expectSameJournal(restored.url, written);
    } finally {
      await restored.stop();
    }

    // Restored without the ENCRYPTION_KEY that sealed its keys, the instance refuses to start and says why.
    const wrongKey = await runEntrypointToExit({ ...env, DATABASE_URL: target.url, ENCRYPTION_KEY: randomBytes(32).toString("hex") });
    expect(wrongKey.code).not.toBe(0);
    expect(wrongKey.output).toMatch(/ENCRYPTION_KEY/);
    expect(wrongKey.output).toMatch(/neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS/);
  });

  it("the embedded database: its folder copied while the server is stopped is the same journal", async () => {
    const folder = join(scratch, "journal");
    const env = await environment(`pglite:${folder}`);
    const first = await startEntrypoint(env, 60_000);
    let written;
    try {
      written = await writeJournal(first.url);
      // No administrator on a new embedded journal: the start printed a one-time setup link, a plain line
      // (never the JSON log), since the operator CLI cannot open the database beside the server.
      const line = first.output().split("\n").find((l) => l.startsWith("No administrator yet."))!;
      expect(line).toMatch(/open http:\/\/localhost:\d+\/setup\/admin#[A-Za-z0-9_-]{43} to become this journal's administrator/);
      const token = line.split("#")[1]!.split(" ")[0]!;
      expect(first.output().split(token)).toHaveLength(2);
      const operator = new TestClient(first.url);
      await operator.post("/api/auth/register", { email: uniqueEmail("operator"), password: PASSWORD });
      const claimed = await operator.post("/api/admin/setup", { token });
      expect(claimed.status).toBe(200);
      expect((await claimed.json()).user.isAdmin).toBe(true);
    } finally {
      await first.stop();
    }
    const copy = join(scratch, "journal-copy");
    cpSync(folder, copy, { recursive: true });
    const restored = await startEntrypoint({ ...env, DATABASE_URL: `pglite:${copy}` }, 60_000);
    try {
      await expectSameJournal(restored.url, written);
      // It has an administrator now: no link.
      expect(restored.output()).not.toContain("No administrator yet");
    } finally {
      await restored.stop();
    }
  });
});
