// An archive of 200 MB restored without holding it in memory (lib/archive/restore.ts): the server's resident
// memory grows by less than 150 MB while it takes the upload (kept in a scratch file), reads it and stages its
// 44 screenshots of about 4.6 MB one at a time. Measured from outside, as a container limit sees it: the Node
// entrypoint in a process of its own, its VmRSS read from /proc every 10 ms from just before the request to
// its answer.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { afterAll, expect, inject, it } from "vitest";
import { signUp, testApp } from "../support/app.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";
import { readProcessEnv } from "../../lib/config/index.ts";
import { largePng } from "../support/images.ts";

const IMAGES = 44;
const IMAGE_BYTES = 4_600_000;
let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Writes a zip of the given entries to `path`, one entry in memory at a time. */
async function writeZip(path: string, entries: Iterable<[string, () => Uint8Array, boolean]>) {
  const out = createWriteStream(path);
  const done = new Promise<void>((resolve, reject) => {
    const zip = new Zip((err, chunk, final) => {
      if (err) return reject(err);
      out.write(chunk);
      if (final) out.end(resolve);
    });
    for (const [name, bytes, deflate] of entries) {
      const entry = deflate ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
      zip.add(entry);
      entry.push(bytes(), true);
    }
    zip.end();
  });
  await done;
}

it("restores a 200 MB archive with under 150 MB of memory growth", async () => {
  const t = await testApp(inject("databaseUrl"), {}, { peer: "per-request" });
  const { client } = await signUp(t, "archive-memory");
  const account = (await (await client.post("/api/accounts", { name: "Big", currency: "USD" })).json()).id as string;
  const journal = await (await client.get("/api/auth/account/export")).text();
  expect((await client.request(`/api/accounts/${account}`, { method: "DELETE" })).status).toBe(204);

  dir = await mkdtemp(join(tmpdir(), "archive-memory-"));
  const path = join(dir, "big.zip");
  const days = Array.from({ length: IMAGES }, (_, i) => new Date(Date.UTC(2026, 0, 5 + i)).toISOString().slice(0, 10));
  const index = days.map((day, i) => ({ file: `screenshots/day-${i}.png`, contentType: "image/png", createdAt: `${day}T21:00:00Z`, owner: { day: { account: 0, date: day } } }));
  await writeZip(path, [
    ["manifest.json", () => strToU8(JSON.stringify({ format: "trading-journal-archive", version: 1 })), true],
    ["journal.json", () => strToU8(journal), true],
    ["screenshots.json", () => strToU8(JSON.stringify(index)), true],
    ...index.map((s): [string, () => Uint8Array, boolean] => [s.file, () => largePng(IMAGE_BYTES), false]),
  ]);
  const size = (await stat(path)).size;
  expect(size).toBeGreaterThan(200_000_000);

  const { PATH } = await readProcessEnv({ dotenvPath: false });
  const server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: inject("databaseUrl") });
  const rss = async () => Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${server.child.pid}/status`, "utf8"))![1]) * 1024;
  let res: Response;
  let base: number;
  let peak: number;
  try {
    base = await rss();
    peak = base;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await rss().catch(() => 0));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    try {
      const body = Readable.toWeb(createReadStream(path, { highWaterMark: 1 << 20 })) as ReadableStream<Uint8Array>;
      const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      res = await fetch(`${server.url}/api/archive`, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/zip", "Content-Length": String(size), Cookie: cookie, ...client.headers },
        duplex: "half",
      } as RequestInit);
      await res.clone().arrayBuffer();
    } finally {
      sampling = false;
      await sampler;
    }
  } finally {
    await server.stop();
  }
  expect(res.status, await res.clone().text()).toBe(201);
  expect(await res.json()).toMatchObject({ accounts: 1, screenshots: IMAGES });
  const growth = (peak - base) / 1024 / 1024;
  console.log(`archive restore: ${(size / 1e6).toFixed(0)} MB archive, resident memory +${growth.toFixed(0)} MB at the peak`);
  expect(growth).toBeLessThan(150);
  const me = (await (await client.get("/api/auth/me")).json()).user.id as string;
  const [row] = (await t.deps.db.execute(sql`select count(*)::int as n, sum(bytes)::bigint::text as bytes from trade_images where user_id = ${me}::uuid and day is not null`)).rows as Array<{ n: number; bytes: string }>;
  expect(row).toEqual({ n: IMAGES, bytes: String(IMAGES * IMAGE_BYTES) });
}, 300_000);
