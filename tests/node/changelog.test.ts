// The in-app changelog against a local stand-in of the releases API, on the real Postgres (a database of this
// file's own: the cached copy is instance-wide).
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { shippedChangelogReader } from "../../lib/changelog/node.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { release, startReleasesServer, type ReleasesServer } from "../support/releases-server.ts";

let db: { name: string; url: string };
let stand: ReleasesServer;
let t: TestApp;
/** How far the app's clock runs ahead of the real one. */
let ahead = 0;

beforeAll(async () => {
  stand = await startReleasesServer();
  db = await createMigratedDatabase("journal_changelog_test");
  t = await testApp(db.url, { CHANGELOG_RELEASES_BASE_URL: stand.url, CHANGELOG_RELEASES_REPO: "acme/journal" }, { peer: "per-request", now: () => new Date(Date.now() + ahead) });
});
afterAll(async () => {
  await stand?.close();
  if (db) await dropDatabase(db.name);
});
beforeEach(async () => {
  await t.deps.db.execute(sql`delete from changelog_cache`);
  stand.status = undefined;
  stand.hang = false;
  // Past any earlier test's failed call (CHANGELOG_RETRY_MS).
  ahead += 61_000;
  stand.releases = [
    release("v1.2.0", "2026-11-20T10:00:00Z", "## New\n\n- Symbol search.\n\n<script>alert(1)</script>"),
    release("v1.1.0", "2026-10-01T10:00:00Z"),
    { ...release("v1.3.0-draft", "2026-11-22T10:00:00Z"), draft: true },
    release("v1.0.0", "2026-09-01T10:00:00Z"),
  ];
});

/** The copy as fetched `minutes` ago by the app's clock. */
const age = (minutes: number) => t.deps.db.execute(sql`update changelog_cache set fetched_at = ${new Date(Date.now() + ahead - minutes * 60_000).toISOString()}::timestamptz`);

describe("GET /api/changelog", () => {
  it("fetches the releases of the configured repository, newest first, drafts left out", async () => {
    const { client } = await signUp(t, "log");
    const res = await client.get("/api/changelog");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.stale).toBe(false);
    expect(body.releases.map((r: { tag: string }) => r.tag)).toEqual(["v1.2.0", "v1.1.0", "v1.0.0"]);
    expect(body.releases[0]).toEqual({
      name: "Release v1.2.0",
      tag: "v1.2.0",
      publishedAt: "2026-11-20T10:00:00.000Z",
      url: "https://example.com/releases/v1.2.0",
      body: "## New\n\n- Symbol search.\n\n<script>alert(1)</script>",
    });
    expect(stand.requests.at(-1)).toBe("/repos/acme/journal/releases?per_page=30");
  });

  it("serves the copy for 15 minutes, then fetches again", async () => {
    const { client } = await signUp(t, "cache");
    const before = stand.requests.length;
    await client.get("/api/changelog");
    await client.get("/api/changelog");
    expect(stand.requests.length - before).toBe(1);
    await age(14);
    await client.get("/api/changelog");
    expect(stand.requests.length - before).toBe(1);
    await age(16);
    stand.releases = [release("v2.0.0", "2026-11-23T10:00:00Z"), ...stand.releases];
    const fresh = await (await client.get("/api/changelog")).json();
    expect(fresh.releases[0].tag).toBe("v2.0.0");
    expect(stand.requests.length - before).toBe(2);
  });

  it("20 readers at once with no copy: one call to the source", async () => {
    const { client } = await signUp(t, "flight");
    const before = stand.requests.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.get("/api/changelog")));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(stand.requests.length - before).toBe(1);
  });

  it("the source failing: the last copy, marked stale; never fetched: 503 CHANGELOG_UNAVAILABLE; asked again a minute later", async () => {
    const { client } = await signUp(t, "stale");
    stand.status = 500;
    const calls = stand.requests.length;
    const none = await client.get("/api/changelog");
    expect(none.status).toBe(503);
    expect((await none.json()).error).toMatchObject({ code: "CHANGELOG_UNAVAILABLE", message: "The release notes cannot be fetched right now. Try again later." });
    // Within the minute after a failed call the source is not asked again, even once it is back.
    stand.status = undefined;
    expect((await client.get("/api/changelog")).status).toBe(503);
    expect(stand.requests.length - calls).toBe(1);
    ahead += 61_000;
    expect((await (await client.get("/api/changelog")).json()).stale).toBe(false);
    expect(stand.requests.length - calls).toBe(2);

    await age(20);
    stand.status = 502;
    for (let i = 0; i < 3; i++) {
      const old = await client.get("/api/changelog");
      expect(old.status).toBe(200);
      const body = await old.json();
      expect(body.stale).toBe(true);
      expect(body.releases).toHaveLength(3);
    }
    expect(stand.requests.length - calls).toBe(3);
    // Recovered: fresh again once the minute has passed.
    stand.status = undefined;
    expect((await (await client.get("/api/changelog")).json()).stale).toBe(true);
    ahead += 61_000;
    expect((await (await client.get("/api/changelog")).json()).stale).toBe(false);
    expect(stand.requests.length - calls).toBe(4);
  });

  it("a source that does not answer: one caller waits out the 10 s timeout, the next minute's callers are not sent to it", async () => {
    const { client } = await signUp(t, "hang");
    stand.hang = true;
    const calls = stand.requests.length;
    expect((await client.get("/api/changelog")).status).toBe(503);
    expect((await client.get("/api/changelog")).status).toBe(503);
    expect(stand.requests.length - calls).toBe(1);
  }, 30_000);

  it("a source that is not the releases API (not a list, not JSON) counts as failing", async () => {
    const { client } = await signUp(t, "garbage");
    stand.releases = { message: "rate limited" } as never;
    expect((await client.get("/api/changelog")).status).toBe(503);
  });

  it("401 without a session", async () => {
    expect((await t.client().get("/api/changelog")).status).toBe(401);
    expect((await t.client().post("/api/changelog/viewed")).status).toBe(401);
  });
});

describe("unread", () => {
  it("counts releases since sign-up until the user looks, then since they looked", async () => {
    const { client, userId } = await signUp(t, "unread");
    // Signed up before v1.1.0 and v1.2.0 were published.
    await t.deps.db.execute(sql`update users set created_at = '2026-09-15T00:00:00Z' where id = ${userId}`);
    expect((await (await client.get("/api/changelog")).json()).unread).toBe(2);
    expect((await client.post("/api/changelog/viewed")).status).toBe(204);
    expect((await (await client.get("/api/changelog")).json()).unread).toBe(0);
    // A newer release arrives.
    await age(16);
    stand.releases = [release("v9.0.0", new Date(Date.now() + ahead + 60_000).toISOString()), ...stand.releases];
    expect((await (await client.get("/api/changelog")).json()).unread).toBe(1);
  });
});

describe("on a closed network: the release notes the instance ships (Node)", () => {
  it("never fetched and the source failing: CHANGELOG.md, its Unreleased section named after the version, marked shipped; a fetched copy comes first", async () => {
    const shipping = await testApp(
      db.url,
      { CHANGELOG_RELEASES_BASE_URL: stand.url, CHANGELOG_RELEASES_REPO: "acme/journal" },
      { peer: "per-request", now: () => new Date(Date.now() + ahead), shippedChangelog: shippedChangelogReader("2.4.0") },
    );
    const { client } = await signUp(shipping, "shipped");
    stand.status = 500;
    const res = await client.get("/api/changelog");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ stale: true, shipped: true, unread: 0 });
    // The repository's own CHANGELOG.md: one "Unreleased" section, this version's notes.
    expect(body.releases).toHaveLength(1);
    expect(body.releases[0]).toMatchObject({ name: "This version (2.4.0)", tag: "v2.4.0", url: "" });
    expect(body.releases[0].body).toContain("### The trade on its chart");

    // Once the source answered, its copy is what a later failure serves, never the shipped notes.
    stand.status = undefined;
    ahead += 61_000;
    expect(await (await client.get("/api/changelog")).json()).toMatchObject({ stale: false, shipped: false });
    await age(20);
    stand.status = 502;
    expect(await (await client.get("/api/changelog")).json()).toMatchObject({ stale: true, shipped: false, releases: [{ tag: "v1.2.0" }, { tag: "v1.1.0" }, { tag: "v1.0.0" }] });
  });

  it("each section is a release, dated by the file: a version installed after the user looked counts as unread", async () => {
    const folder = mkdtempSync(join(tmpdir(), "journal-changelog-"));
    try {
      const file = join(folder, "CHANGELOG.md");
      writeFileSync(file, "# Release notes\n\n## Unreleased\n\n- Faster charts.\n\n## 1.0.0\n\n- The first release.\n");
      const installed = new Date(Date.now() + ahead + 3_600_000);
      utimesSync(file, installed, installed);
      const shipping = await testApp(
        db.url,
        { CHANGELOG_RELEASES_BASE_URL: stand.url, CHANGELOG_RELEASES_REPO: "acme/journal" },
        { peer: "per-request", now: () => new Date(Date.now() + ahead), shippedChangelog: shippedChangelogReader("1.1.0", file) },
      );
      const { client } = await signUp(shipping, "sections");
      stand.status = 500;
      const body = await (await client.get("/api/changelog")).json();
      expect(body.releases.map((r: { name: string; body: string; publishedAt: string }) => [r.name, r.body, r.publishedAt])).toEqual([
        ["This version (1.1.0)", "- Faster charts.", installed.toISOString()],
        ["1.0.0", "- The first release.", installed.toISOString()],
      ]);
      expect(body.unread).toBe(2);
      // Without the file: 503, as on a Worker.
      rmSync(file);
      ahead += 61_000;
      expect((await client.get("/api/changelog")).status).toBe(503);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
