// Market data in Chromium against the real Node entrypoint: the server's scheduler loads the ticker file from
// the local stand-in shortly after start; the fill form's Symbol field suggests tickers and the keyboard
// picks one; the open positions list shows the delayed last price and the unrealised P&L.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

describe("symbol autocomplete and open positions valued", () => {
  let t: TraderPage;
  let accountId = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "market");
    const res = await t.context.request.post(`${base()}/api/accounts`, { data: { name: "Quotes", currency: "USD", startingBalance: "10000" } });
    expect(res.status()).toBe(201);
    accountId = ((await res.json()) as { id: string }).id;
    // The scheduler's first run is a few seconds after start.
    const deadline = Date.now() + 30_000;
    const loaded = async () => ((await (await t.context.request.get(`${base()}/api/symbols?q=KO`)).json()) as { symbols?: unknown[] }).symbols?.length ?? 0;
    while ((await loaded()) === 0) {
      if (Date.now() > deadline) throw new Error("the ticker file was not loaded within 30 s of start");
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 60_000);
  afterAll(() => t?.browser.close());

  it("typing a company name suggests its ticker; arrow down and Enter put it in the fill form", async () => {
    const { page } = t;
    await page.goto(`${base()}/fills/new?accountId=${accountId}`);
    const symbol = page.getByRole("combobox", { name: "Symbol" });
    await symbol.fill("coca");
    const option = page.getByRole("option", { name: /KO COCA COLA CO/ });
    await option.waitFor();
    await symbol.press("ArrowDown");
    await expect.poll(() => option.getAttribute("aria-selected")).toBe("true");
    await symbol.press("Enter");
    await expect.poll(() => symbol.inputValue()).toBe("KO");
    await expect.poll(() => page.getByRole("listbox").isVisible()).toBe(false);

    await page.getByLabel("Quantity").fill("10");
    await page.getByLabel("Price", { exact: true }).fill("60");
    await page.getByRole("button", { name: "Add fill" }).click();
    await page.waitForURL(/\/trades\?/);
    await page.getByRole("link", { name: "KO" }).waitFor();
  });

  it("the open positions list shows the last price and the unrealised P&L", async () => {
    const { page } = t;
    await page.goto(`${base()}/trades?status=open`);
    const table = page.getByRole("table", { name: /Open positions/ });
    await table.waitFor();
    const row = table.getByRole("row", { name: /KO/ });
    // 10 x (61.03 - 60) = +10.30.
    await expect.poll(() => row.innerText()).toContain("61.03");
    expect(await row.innerText()).toContain("+$10.30");
    await page.getByRole("button", { name: "Refresh prices" }).click();
    await expect.poll(() => row.innerText()).toContain("+$10.30");
    expect(t.errors).toEqual([]);
  });
});
