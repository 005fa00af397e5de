// Settings > Billing in Chromium against the real entrypoint and the payment provider's stand-in: buy a pack
// (redirected to the hosted page), the provider's webhook arrives, the return page sees the credits.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";
import { confirmCheckout } from "../support/payment-server.ts";

describe("Settings > Billing", () => {
  let t: TraderPage;
  beforeAll(async () => {
    t = await signedInTrader(inject("baseUrl"), "billing");
  });
  afterAll(() => t?.browser.close());

  it("buys a pack: the hosted page, the webhook, then the balance on the return page", async () => {
    const { page, errors } = t;
    await page.goto(`${inject("baseUrl")}/settings/billing`);
    const credits = page.getByLabel("Credits", { exact: true });
    await expect.poll(() => credits.textContent()).toContain("Available0");
    await page.getByRole("button", { name: "Buy Starter: 500 credits for $5.00" }).click();
    await page.waitForURL(/\/pay\/cs_test_/);
    const sessionId = new URL(page.url()).pathname.split("/").pop()!;

    // The provider confirms the payment to the webhook, as it would after the card is charged.
    expect((await confirmCheckout(inject("baseUrl"), inject("paymentUrl"), sessionId)).status).toBe(200);

    await page.getByRole("link", { name: "Pay" }).click();
    await page.waitForURL(/\/settings\/billing\?checkout=success/);
    await page.getByText("Payment confirmed: 500 credits added.").waitFor();
    await expect.poll(() => credits.textContent()).toContain("Available500");
    await page.getByRole("table", { name: "Credit history, newest first" }).getByText("Credit pack bought").waitFor();
    expect(errors).toEqual([]);
  });
});
