// The daily journal (docs/discipline.md): one entry per account and trading day; a write sets the fields it
// names and keeps the others; an entry left blank is removed (not one with an image); days are real dates; an
// account of another user is not found. Images on a day and on a playbook. On the real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { journal } from "../support/app.ts";
import { pngImage } from "../support/images.ts";

const url = () => inject("databaseUrl");

async function trader(tag = "days") {
  const j = await journal(url());
  const { client } = await j.signUp(tag);
  const account = async (name: string) => {
    const res = await client.post("/api/accounts", { name: `${name} ${crypto.randomUUID()}`, currency: "USD", startingBalance: "1000", timezone: "America/New_York" });
    expect(res.status).toBe(201);
    return (await res.json()).id as string;
  };
  return { ...j, client, account, accountId: await account("Days") };
}

describe("the daily journal", () => {
  it("writes a day's plan, then its review without touching the plan; reads it back; lists the days of a range", async () => {
    const t = await trader();
    const put = (day: string, body: Record<string, unknown>) => t.client.request(`/api/days/${t.accountId}/${day}`, { method: "PUT", json: body });
    const plan = await put("2026-11-24", { plan: "Only A+ setups; max 3 trades.", tags: ["fomc", "fomc", "slow"] });
    expect(plan.status, await plan.clone().text()).toBe(200);
    expect(await plan.json()).toMatchObject({ accountId: t.accountId, day: "2026-11-24", plan: "Only A+ setups; max 3 trades.", review: null, mood: null, tags: ["fomc", "slow"] });
    const review = await put("2026-11-24", { review: "Took 5 trades. Broke my own max.", mood: 2 });
    expect(await review.json()).toMatchObject({ plan: "Only A+ setups; max 3 trades.", review: "Took 5 trades. Broke my own max.", mood: 2, tags: ["fomc", "slow"] });
    expect(await (await t.client.get(`/api/days/${t.accountId}/2026-11-24`)).json()).toMatchObject({ mood: 2, tags: ["fomc", "slow"] });
    await put("2026-11-26", { mood: 5 });
    await put("2026-12-01", { plan: "Next week" });

    const list = await (await t.client.get(`/api/days?accountId=${t.accountId}&from=2026-11-23&to=2026-11-29`)).json();
    expect(list.days.map((d: { day: string }) => d.day)).toEqual(["2026-11-24", "2026-11-26"]);
    // Every account of the user when none is named.
    const second = await t.account("Second");
    expect((await t.client.request(`/api/days/${second}/2026-11-25`, { method: "PUT", json: { plan: "Other account" } })).status).toBe(200);
    const all = await (await t.client.get("/api/days?from=2026-11-23&to=2026-11-29")).json();
    expect(all.days.map((d: { day: string; accountId: string }) => [d.day, d.accountId === second])).toEqual([
      ["2026-11-24", false],
      ["2026-11-25", true],
      ["2026-11-26", false],
    ]);
  });

  it("an entry written blank is removed (204); DELETE removes one; a day with none is 404", async () => {
    const t = await trader();
    const path = `/api/days/${t.accountId}/2026-11-24`;
    expect((await t.client.request(path, { method: "PUT", json: { plan: "x", mood: 3 } })).status).toBe(200);
    expect((await t.client.request(path, { method: "PUT", json: { plan: "  " } })).status).toBe(200); // the mood is kept
    expect((await t.client.request(path, { method: "PUT", json: { mood: null } })).status).toBe(204);
    expect((await t.client.get(path)).status).toBe(404);
    const rows = rowsOf(await t.db.execute(sql`select 1 from day_journals where account_id = ${t.accountId}`));
    expect(rows).toHaveLength(0);
    expect((await t.client.request(path, { method: "PUT", json: { review: "kept" } })).status).toBe(200);
    expect((await t.client.request(path, { method: "DELETE" })).status).toBe(204);
    expect((await t.client.request(path, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses dates that do not exist, a mood outside 1-5, a backwards or too long range; another user's account is not found", async () => {
    const t = await trader();
    for (const day of ["2026-02-30", "2026-13-01", "26-11-24", "1969-12-31"]) {
      const res = await t.client.request(`/api/days/${t.accountId}/${day}`, { method: "PUT", json: { plan: "x" } });
      expect(res.status, day).toBe(400);
      expect((await res.json()).error.fields[0].path).toBe("day");
    }
    const mood = await t.client.request(`/api/days/${t.accountId}/2026-11-24`, { method: "PUT", json: { mood: 6 } });
    expect((await mood.json()).error.fields).toEqual([{ path: "mood", message: "must be 1 to 5" }]);
    expect((await t.client.get(`/api/days?from=2026-11-24&to=2026-11-23`)).status).toBe(400);
    expect((await t.client.get(`/api/days?from=2025-01-01&to=2026-11-23`)).status).toBe(400);

    const other = await trader("days-other");
    expect((await other.client.request(`/api/days/${t.accountId}/2026-11-24`, { method: "PUT", json: { plan: "theirs" } })).status).toBe(404);
    expect((await other.client.get(`/api/days?accountId=${t.accountId}&from=2026-11-01&to=2026-11-30`)).status).toBe(404);
    expect(rowsOf(await t.db.execute(sql`select 1 from day_journals where account_id = ${t.accountId}`))).toHaveLength(0);
  });
});

describe("images on a day and on a playbook", () => {
  const shot = (rgb: [number, number, number] = [20, 120, 200]) => {
    const form = new FormData();
    form.set("file", new Blob([pngImage({ rgb }) as BlobPart]), "chart.png");
    return form;
  };

  it("a day's image makes its entry and keeps it when the text is cleared; DELETE of the entry takes its images; another user's day is not found", async () => {
    const t = await trader();
    const base = `/api/days/${t.accountId}/2026-11-24`;
    const added = await t.client.request(`${base}/images`, { method: "POST", body: shot() });
    expect(added.status, await added.clone().text()).toBe(201);
    const image = await added.json();
    expect(image).toMatchObject({ contentType: "image/png" });
    // The entry exists now (blank but for its image), and clearing its text keeps it.
    expect((await t.client.get(base)).status).toBe(200);
    expect((await t.client.request(base, { method: "PUT", json: { plan: "x" } })).status).toBe(200);
    expect((await t.client.request(base, { method: "PUT", json: { plan: null } })).status).toBe(200);
    expect((await (await t.client.get(`${base}/images`)).json()).images.map((i: { id: string }) => i.id)).toEqual([image.id]);
    const bytes = await t.client.get(`${base}/images/${image.id}`);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("content-type")).toBe("image/png");

    const other = await trader("days-intruder");
    expect((await other.client.get(`${base}/images`)).status).toBe(404);
    expect((await other.client.get(`${base}/images/${image.id}`)).status).toBe(404);
    expect((await other.client.request(`${base}/images`, { method: "POST", body: shot() })).status).toBe(404);
    expect((await other.client.request(`${base}/images/${image.id}`, { method: "DELETE" })).status).toBe(404);

    expect((await t.client.request(base, { method: "DELETE" })).status).toBe(204);
    expect(rowsOf(await t.db.execute(sql`select 1 from trade_images where id = ${image.id}`))).toHaveLength(0);
  });

  it("a playbook's example images: up to 10, listed, read and deleted; deleting an unused playbook takes them", async () => {
    const t = await trader();
    const book = await (await t.client.post("/api/playbooks", { name: `Flag ${crypto.randomUUID()}` })).json();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.client.request(`/api/playbooks/${book.id}/images`, { method: "POST", body: shot([i * 20, 40, 60]) });
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const full = await t.client.request(`/api/playbooks/${book.id}/images`, { method: "POST", body: shot() });
    expect(full.status).toBe(413);
    expect((await full.json()).error.message).toContain("A playbook holds at most 10 images");
    expect((await (await t.client.get(`/api/playbooks/${book.id}/images`)).json()).images.map((i: { id: string }) => i.id)).toEqual(ids);
    expect((await t.client.request(`/api/playbooks/${book.id}/images/${ids[0]}`, { method: "DELETE" })).status).toBe(204);
    expect((await t.client.get(`/api/playbooks/${book.id}/images/${ids[0]}`)).status).toBe(404);
    // A playbook that is not there: 404.
    expect((await t.client.request(`/api/playbooks/${crypto.randomUUID()}/images`, { method: "POST", body: shot() })).status).toBe(404);
    expect((await t.client.request(`/api/playbooks/${book.id}`, { method: "DELETE" })).status).toBe(204);
    expect(rowsOf(await t.db.execute(sql`select 1 from trade_images where playbook_id = ${book.id}`))).toHaveLength(0);
  });
});
