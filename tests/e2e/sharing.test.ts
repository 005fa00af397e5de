// Sharing and mentors in Chromium against the real server (issue 59; docs/sharing.md): a trade shared from its
// page with amounts hidden, opened signed out in a fresh browser at 1280 and 390 px (no cookie set, never
// indexed, nothing else of the trader's in the page); a mentor invited, accepting, reading the trade and
// commenting, with a comment that would run script if it were rendered as markup; privacy mode.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage, SCREENSHOTS, signedInTrader, type TraderPage } from "./browser.ts";

describe("sharing and mentors", () => {
  let t: TraderPage;
  let m: TraderPage;
  let tradeId = "";
  let accountName = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "sharer");
    m = await signedInTrader(base(), "mentor");
    accountName = `Private account ${Date.now()}`;
    const account = await t.context.request.post(`${base()}/api/accounts`, { data: { name: accountName, currency: "USD", startingBalance: "25000", timezone: "America/New_York" } });
    expect(account.status(), await account.text()).toBe(201);
    const accountId = ((await account.json()) as { id: string }).id;
    await t.context.request.patch(`${base()}/api/accounts/${accountId}`, { data: { defaultRisk: "100" } });
    for (const [side, price, at] of [["buy", "50", "2026-10-05T14:00:00Z"], ["sell", "52", "2026-10-05T15:00:00Z"]] as const) {
      const res = await t.context.request.post(`${base()}/api/fills`, { data: { accountId, symbol: "AAPL", side, quantity: "100", price, fees: "1", executedAt: at } });
      expect(res.status(), await res.text()).toBe(201);
    }
    tradeId = ((await (await t.context.request.get(`${base()}/api/trades?accountId=${accountId}`)).json()) as { trades: Array<{ id: string }> }).trades[0]!.id;
    await t.context.request.patch(`${base()}/api/trades/${tradeId}`, { data: { notes: "A private note about my sizing" } });
  }, 60_000);
  afterAll(async () => {
    await t?.browser.close();
    await m?.browser.close();
  });

  it("shares a trade with amounts hidden; signed out, the page shows R, sets no cookie and holds nothing else of the trader's", async () => {
    await t.page.goto(`${base()}/trades/${tradeId}`);
    await t.page.getByText("Share this trade").click();
    // Amounts off by default; the chart left on (no bars here), notes off.
    expect(await t.page.getByLabel("Amounts (P&L, fees, quantities)").isChecked()).toBe(false);
    await t.page.getByRole("button", { name: "Make a link" }).click();
    const url = await t.page.getByLabel(/Anyone with this link/).inputValue();
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);

    for (const width of [1280, 390]) {
      const browser = await launchBrowser();
      const { context, page, errors } = await openPage(browser, { width });
      const response = await page.goto(url);
      expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
      await page.getByRole("heading", { name: "AAPL · Long · Closed" }).waitFor();
      await page.getByText("+1.98 R").waitFor();
      expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex, nofollow");
      // The Open Graph card a link preview shows.
      const card = await page.locator('meta[property="og:image"]').getAttribute("content");
      const image = await context.request.get(new URL(card!, url).href);
      expect([image.status(), image.headers()["content-type"]]).toEqual([200, "image/png"]);
      const html = await page.content();
      for (const secret of [t.email, accountName, "A private note", "25,000", "$198", "198.00", tradeId]) expect(html, secret).not.toContain(secret);
      expect(await context.cookies()).toEqual([]);
      if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${SCREENSHOTS}shared-trade${width === 390 ? "-phone" : ""}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await browser.close();
    }
    await t.page.goto(`${base()}/settings/sharing`);
    await t.page.getByRole("cell", { name: /^2/ }).first().waitFor(); // two views, one per width
    expect(t.errors).toEqual([]);
  });

  it("a mentor invited, accepting, reading the trade and commenting; a comment holding markup stays text", async () => {
    await t.page.goto(`${base()}/settings/sharing`);
    const mentors = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Mentors" }) });
    await mentors.getByLabel("Their email").fill(m.email);
    await mentors.getByLabel(accountName).check();
    await mentors.getByRole("button", { name: "Invite" }).click();
    await mentors.getByText("Invited.").waitFor();

    await m.page.goto(`${base()}/settings/sharing`);
    await m.page.getByRole("button", { name: "Accept the invitation" }).click();
    await m.page.getByRole("link", { name: "Open their journal" }).click();
    await m.page.getByText(`You are reading ${t.email}'s journal, read-only`).waitFor();
    await m.page.getByRole("link", { name: "AAPL" }).click();
    await m.page.getByRole("heading", { name: "AAPL · Long" }).waitFor();
    // No journal scope: what the trader wrote is not there.
    expect(await m.page.content()).not.toContain("A private note");
    const evil = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>Nice exit`;
    await m.page.getByLabel("Add a comment").fill(evil);
    await m.page.getByRole("button", { name: "Comment" }).click();
    await m.page.getByText("Comment added.").waitFor();

    await t.page.goto(`${base()}/trades/${tradeId}`);
    const comment = t.page.locator(".comment", { hasText: "Nice exit" });
    await comment.waitFor();
    expect(await comment.textContent()).toContain(evil);
    expect(await comment.locator("img, script").count()).toBe(0);
    expect(await t.page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await t.page.getByLabel("Add a comment").fill("Thanks, I will keep it.");
    await t.page.getByRole("button", { name: "Comment" }).click();
    await t.page.getByText("Thanks, I will keep it.").waitFor();
    expect(t.errors).toEqual([]);
    expect(m.errors).toEqual([]);
  });

  it("a report shared from Settings shows R, and no amounts, signed out", async () => {
    await t.page.goto(`${base()}/settings/sharing`);
    const form = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Share a report" }) });
    await form.getByLabel(accountName).check();
    await form.getByRole("button", { name: "Make a report link" }).click();
    const url = await form.getByLabel(/Anyone with this link can see the report/).inputValue();
    const browser = await launchBrowser();
    const { context, page } = await openPage(browser, { width: 390 });
    await page.goto(url);
    await page.getByRole("heading", { name: "Trading report" }).waitFor();
    await page.getByText("+1.98 R").first().waitFor();
    const html = await page.content();
    for (const secret of [t.email, accountName, "$198", "198.00", "25,000"]) expect(html, secret).not.toContain(secret);
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SCREENSHOTS}shared-report-phone.png`, fullPage: true });
    await browser.close();
    expect(t.errors).toEqual([]);
  });

  it("privacy mode masks every amount and position size, and shows them again", async () => {
    await t.page.goto(`${base()}/trades/${tradeId}`);
    await t.page.getByText("+$198.00").first().waitFor();
    await t.page.getByRole("button", { name: "Hide amounts" }).click();
    await t.page.getByRole("button", { name: "Show amounts" }).waitFor();
    await expect.poll(async () => (await t.page.locator("main").textContent()) ?? "").not.toContain("$198.00");
    expect(await t.page.locator("main").textContent()).toContain("•••");
    await t.page.reload();
    await t.page.getByRole("button", { name: "Show amounts" }).click();
    await t.page.getByText("+$198.00").first().waitFor();
    expect(t.errors).toEqual([]);
  });
});
