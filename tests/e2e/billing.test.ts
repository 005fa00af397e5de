// Settings > Billing in Chromium against the real entrypoint and the payment provider's stand-in: buy a pack
// (redirected to the hosted page), the provider's webhook arrives, the return page sees the credits.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { signedEvent } from "../support/payment-server.ts";

describe("Settings > Billing", () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (e) => errors.push(e.message));
    const reg = await context.request.post(`${inject("baseUrl")}/api/auth/register`, {
      data: { email: `billing-${Date.now()}@example.com`, password: "correct horse battery" },
    });
    expect(reg.status()).toBe(201);
  });
  afterAll(() => browser?.close());

  it("buys a pack: the hosted page, the webhook, then the balance on the return page", async () => {
    await page.goto(`${inject("baseUrl")}/settings/billing`);
    const credits = page.getByLabel("Credits", { exact: true });
    await expect.poll(() => credits.textContent()).toContain("Available0");
    await page.getByRole("button", { name: "Buy Starter: 500 credits for $5.00" }).click();
    await page.waitForURL(/\/pay\/cs_test_/);
    const sessionId = new URL(page.url()).pathname.split("/").pop()!;

    // The provider confirms the payment to the webhook, as it would after the card is charged.
    const session = await (await fetch(`${inject("paymentUrl")}/__sessions/${sessionId}`)).json();
    const event = await signedEvent("checkout.session.completed", session);
    const delivered = await fetch(`${inject("baseUrl")}/api/billing/webhook`, {
      method: "POST",
      body: event.body,
      headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
    });
    expect(delivered.status).toBe(200);

    await page.getByRole("link", { name: "Pay" }).click();
    await page.waitForURL(/\/settings\/billing\?checkout=success/);
    await page.getByText("Payment confirmed: 500 credits added.").waitFor();
    await expect.poll(() => credits.textContent()).toContain("Available500");
    await page.getByRole("table", { name: "Credit history, newest first" }).getByText("Credit pack bought").waitFor();
    expect(errors).toEqual([]);
  });
});
