// The Simulations page in Chromium against the real server (issue 57; docs/simulations.md): a Monte Carlo of
// the trader's own trades with its fan, histograms, risk sweep and assumptions, and a what-if beside the
// actual, at 1280 and 390 px.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SCREENSHOTS, signedInTrader, type TraderPage } from "./browser.ts";

describe("simulations: the Monte Carlo and the what-if", () => {
  let t: TraderPage;
  let accountId = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "simulations");
    const res = await t.context.request.post(`${base()}/api/accounts`, { data: { name: "Swing", currency: "USD", timezone: "America/New_York" } });
    expect(res.status(), await res.text()).toBe(201);
    accountId = ((await res.json()) as { id: string }).id;
    expect((await t.context.request.patch(`${base()}/api/accounts/${accountId}`, { data: { defaultRisk: "100" } })).status()).toBe(200);
    // 30 trades over 15 weekdays from Monday 2026-10-05: +2 R, -1 R, -1 R, +0.5 R, +1.5 R, -0.5 R, ...
    const sells = ["52", "49", "49", "50.5", "51.5", "49.5"];
    for (let i = 0; i < 30; i++) {
      const d = Math.floor(i / 2);
      const day = new Date(Date.UTC(2026, 9, 5 + d + 2 * Math.floor(d / 5))).toISOString().slice(0, 10);
      const hour = i % 2 ? 15 : 14;
      for (const [side, price, minute] of [["buy", "50", "00"], ["sell", sells[i % 6]!, "30"]] as const) {
        const fill = await t.context.request.post(`${base()}/api/fills`, { data: { accountId, symbol: ["AAPL", "MSFT", "KO"][i % 3], side, quantity: "100", price, fees: "0", executedAt: `${day}T${hour}:${minute}:00Z` } });
        expect(fill.status(), await fill.text()).toBe(201);
      }
    }
    // Prop-firm rules on the account: the simulation's paths as attempts at them.
    const rules = { startingBalance: "50000", profitTarget: "3000", maxDrawdown: "2000", drawdownMode: "static", dailyLossLimit: null, dailyLossIncludesOpen: false, dayStartsAt: "17:00", dayZone: "America/Chicago", minTradingDays: 5, consistencyPct: null, maxContracts: null };
    const put = await t.context.request.put(`${base()}/api/accounts/${accountId}/evaluation`, { data: { firm: "Own", phase: "evaluation", startDate: "2026-10-05", ...rules } });
    expect(put.status(), await put.text()).toBe(200);
  }, 120_000);
  afterAll(() => t?.browser.close());

  it("at 1280 px: a simulation from the trader's own trades, and a weekday left out", async () => {
    await t.page.goto(`${base()}/simulations?account=${accountId}`);
    const mc = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Monte Carlo of your own trades" }) });
    await mc.getByLabel("Paths").fill("5000");
    await mc.getByLabel("Trades per path").fill("200");
    await mc.getByLabel("Seed").fill("42");
    await mc.getByLabel("Also as attempts at this account's evaluation").check();
    await mc.getByLabel("Evaluation fee").fill("150");
    await mc.getByRole("button", { name: "Run the simulation" }).click();
    await mc.getByText(/5,000 paths of 200 trades, drawn from your 30 trades with a 1R in blocks of 3 \(seed 42\)\./).waitFor();
    expect(await mc.textContent()).toMatch(/Median final equity\$\d{1,3}(,\d{3})*\.\d\d/);
    await mc.getByRole("img", { name: /Equity over 200 trades: after the last, half the paths end above/ }).waitFor();
    await mc.getByRole("img", { name: /How the paths' final equity spreads/ }).waitFor();
    await mc.getByRole("row", { name: /\$100\.00 \(yours\)/ }).waitFor();
    await mc.getByRole("complementary", { name: "Assumptions" }).waitFor();
    await mc.getByRole("heading", { name: "As attempts at the evaluation" }).waitFor();
    expect(await mc.textContent()).toMatch(/Passes\d+\.\d% \(\d+\.\d% to \d+\.\d%\)/);
    expect(await mc.textContent()).toMatch(/Fees expected until funded\$\d+\.\d\d \(\d+\.\d\d attempts\)/);

    const whatIf = t.page.locator("section", { has: t.page.getByRole("heading", { name: "What if…" }) });
    await whatIf.getByLabel("Weekday").selectOption({ label: "Monday" });
    await whatIf.getByText(/6 trades left out, 0 changed/).waitFor();
    // A typed setup applies with Apply (not on every key): no trade has one.
    await whatIf.getByLabel("Setup").fill("Breakout");
    await whatIf.getByRole("button", { name: "Apply" }).click();
    await whatIf.getByText(/6 trades left out, 0 changed/).waitFor();
    await whatIf.getByRole("img", { name: /as it was \(solid line\) ends at/ }).waitFor();
    expect(await whatIf.getByRole("list", { name: "The trades left out or changed" }).getByRole("listitem").count()).toBe(6);
    await t.page.screenshot({ path: `${SCREENSHOTS}simulations.png`, fullPage: true });
    expect(t.errors).toEqual([]);
  });

  it("at 390 px: the page fits the phone", async () => {
    await t.page.setViewportSize({ width: 390, height: 844 });
    await t.page.goto(`${base()}/simulations?account=${accountId}`);
    const mc = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Monte Carlo of your own trades" }) });
    await mc.getByLabel("Paths").fill("2000");
    await mc.getByRole("button", { name: "Run the simulation" }).click();
    await mc.getByText(/2,000 paths of 500 trades/).waitFor();
    const whatIf = t.page.locator("section", { has: t.page.getByRole("heading", { name: "What if…" }) });
    await whatIf.getByLabel("Exits").selectOption({ label: "At the best exit the bars allowed" });
    await whatIf.getByText(/0 trades left out, 0 changed/).waitFor();
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await t.page.screenshot({ path: `${SCREENSHOTS}simulations-phone.png`, fullPage: true });
    expect(t.errors).toEqual([]);
  });
});
