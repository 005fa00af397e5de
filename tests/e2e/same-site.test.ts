// A page on another port of the journal's own host (the same site, another origin) posts a form to the API in
// the signed-in trader's browser. SameSite=Lax lets the cookie go along; the API must refuse the request
// itself (403 CSRF_FAILED, docs/auth.md "Same-origin mode"). In Chromium, against the real Node entrypoint.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

const EXPORT = JSON.stringify({
  format: "trading-journal-export",
  version: 1,
  exportedAt: "2026-03-01T00:00:00Z",
  brokerages: [],
  accounts: [{ name: "Injected", currency: "USD", timezone: "Etc/UTC", brokerage: null, startingBalance: "999999", startingBalanceAt: null, ledger: [], fills: [], journal: [] }],
});

/** The attacker's page: a multipart form with the export as its file, submitted as soon as it loads. */
const page = (target: string) => `<!doctype html><html><body>
<form id="f" method="post" enctype="multipart/form-data" action="${target}/api/auth/account/import"><input type="file" name="file" id="file"></form>
<script>
  const dt = new DataTransfer();
  dt.items.add(new File([${JSON.stringify(EXPORT)}], "export.json", { type: "application/json" }));
  document.getElementById("file").files = dt.files;
  document.getElementById("f").submit();
</script></body></html>`;

describe("a same-site page on another port", () => {
  let t: TraderPage;
  let attacker: Server;
  let attackerUrl = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "same-site");
    attacker = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end(page(base())));
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    // The journal's host with the attacker's port: same site, another origin.
    const journal = new URL(base());
    attackerUrl = `http://${journal.hostname}:${(attacker.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await t?.browser.close();
    await new Promise((resolve) => attacker?.close(resolve));
  });

  it("cannot post a form with the trader's cookie: 403 CSRF_FAILED, and no account appears", async () => {
    const answer = t.page.waitForResponse((r) => r.url().endsWith("/api/auth/account/import"));
    await t.page.goto(attackerUrl);
    const res = await answer;
    // The cookie went along (same site): what stopped it is the origin check.
    expect(await res.request().headerValue("cookie")).toMatch(/journal_session=/);
    expect(await res.request().headerValue("sec-fetch-site")).toBe("same-site");
    expect(res.status()).toBe(403);
    expect((await res.json()).error.code).toBe("CSRF_FAILED");
    const accounts = await (await t.context.request.get(`${base()}/api/accounts`)).json();
    expect(accounts.accounts).toEqual([]);

    // The same file from the journal's own page is taken: the refusal was the origin, not the file.
    await t.page.goto(`${base()}/settings/account`);
    const status = await t.page.evaluate(async (text) => {
      const form = new FormData();
      form.set("file", new File([text], "export.json", { type: "application/json" }));
      return (await fetch("/api/auth/account/import", { method: "POST", body: form })).status;
    }, EXPORT);
    expect(status).toBe(201);
    const after = await (await t.context.request.get(`${base()}/api/accounts`)).json();
    expect(after.accounts.map((a: { name: string }) => a.name)).toEqual(["Injected"]);
  });
});
