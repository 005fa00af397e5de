// The weekly digest's settings and the printable report in Chromium (docs/digest.md): the schedule saved from
// Settings, Digest and its preview shown; the report opened from Journal, Report in a tab of its own, the page
// the browser prints (no navigation, every section), served with its own content policy and no violation.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

const base = () => inject("baseUrl");

describe("the weekly digest and the printable report", () => {
  let t: TraderPage;
  beforeAll(async () => {
    t = await signedInTrader(base(), "digest-report");
  });
  afterAll(() => t?.browser.close());

  it("saves the digest's day, hour and zone, and shows its preview", async () => {
    await t.page.goto(`${base()}/settings/digest`);
    await t.page.getByRole("heading", { name: "Your week by email" }).waitFor();
    await t.page.getByLabel("Send me the weekly digest").check();
    await t.page.getByLabel("Day").selectOption("Friday");
    await t.page.getByLabel("Hour").selectOption("17:00");
    await t.page.getByRole("button", { name: "Save" }).click();
    await t.page.getByText(/^Saved: every Friday at 17:00 \(/).waitFor();
    const settings = (await (await t.context.request.get(`${base()}/api/settings`)).json()) as { digest: { weekly: boolean; weekday: number; hour: number } };
    expect(settings.digest).toMatchObject({ weekly: true, weekday: 5, hour: 17 });
    await t.page.getByRole("button", { name: "Show the preview" }).click();
    await t.page.getByRole("article", { name: "Digest preview" }).getByRole("heading", { name: /^Your week / }).waitFor();
    expect(t.errors).toEqual([]);
  });

  it("opens the report of an account's period in its own tab, ready to print", async () => {
    const res = await t.context.request.post(`${base()}/api/accounts`, { data: { name: "Report account", currency: "USD", startingBalance: "10000", timezone: "America/New_York" } });
    expect(res.status()).toBe(201);
    await t.page.goto(`${base()}/report`);
    await t.page.getByRole("heading", { name: "A period on paper" }).waitFor();
    await t.page.getByLabel("Paper", { exact: true }).selectOption("letter");
    const [report] = await Promise.all([t.context.waitForEvent("page"), t.page.getByRole("link", { name: "Open the report to print" }).click()]);
    const violations: string[] = [];
    report.on("console", (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    await report.waitForLoadState("load");
    await report.getByRole("heading", { name: "Trading report", level: 1 }).waitFor();
    for (const name of ["Summary", "Equity", "Calendar", "Breakdowns", "R distribution", "Rules", "Behaviour findings", "Journal"]) {
      await report.getByRole("heading", { name, level: 2 }).waitFor();
    }
    expect(report.url()).toMatch(/\/api\/reports\/report\.html\?accountId=.+&paper=letter$/);
    expect(await report.locator("nav").count()).toBe(0);
    expect(violations).toEqual([]);
  });
});
