// The advisor in Chromium against the real entrypoint, the model provider's stand-in (tests/support/llm-server.ts,
// scripted by directives in the question) and the payment stand-in for credits: no key -> the way to add one;
// share the journal, ask, watch the answer stream with the tool it used, follow the trade it cites; Stop a slow
// answer and keep what was written; a provider failure says so and offers Retry. (Safe markdown: answer-markdown.test.tsx.)
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { APIRequestContext } from "playwright-core";
import { signedInTrader, type TraderPage } from "./browser.ts";
import { confirmCheckout } from "../support/payment-server.ts";

async function buyCredits(request: APIRequestContext): Promise<void> {
  const checkout = await request.post(`${inject("baseUrl")}/api/billing/checkout`, { data: { packId: "starter" } });
  expect(checkout.status()).toBe(200);
  const sessionId = new URL(((await checkout.json()) as { url: string }).url).pathname.split("/").pop()!;
  expect((await confirmCheckout(inject("baseUrl"), inject("paymentUrl"), sessionId)).status).toBe(200);
}

describe("the advisor", () => {
  let t: TraderPage;
  const go = (path: string) => t.page.goto(`${inject("baseUrl")}${path}`);

  beforeAll(async () => {
    t = await signedInTrader(inject("baseUrl"), "advisor");
  });
  afterAll(() => t?.browser.close());

  it("without a key, says how to add one", async () => {
    const { page } = t;
    await go("/advisor");
    await page.getByRole("heading", { name: "Add a model key to start" }).waitFor();
    await page.getByRole("link", { name: "Add a key" }).click();
    await page.waitForURL(/\/settings\/keys/);
  });

  it("streams a grounded answer with the tool it used and a link to the trade it cites, and shows the credits", async () => {
    const { page, context } = t;
    const { request } = context;
    expect((await request.put(`${inject("baseUrl")}/api/advisor/provider-keys/openai`, { data: { apiKey: `sk-good-${Date.now()}` } })).status()).toBe(200);
    await buyCredits(request);
    const account = await request.post(`${inject("baseUrl")}/api/accounts`, {
      data: { name: "Main", currency: "USD", startingBalance: "10000", timezone: "America/New_York" },
    });
    const { id: accountId } = (await account.json()) as { id: string };
    for (const [side, price, at] of [["buy", "190", "2024-03-01T15:00:00Z"], ["sell", "195", "2024-03-01T18:00:00Z"]] as const) {
      const fill = await request.post(`${inject("baseUrl")}/api/fills`, { data: { accountId, symbol: "AAPL", side, quantity: "10", price, executedAt: at } });
      expect(fill.status()).toBe(201);
    }

    await go("/advisor");
    const share = page.getByLabel("Share my journal with the advisor");
    await share.check();
    await expect.poll(() => share.isChecked()).toBe(true);
    await page.getByText(/credits available/).waitFor();

    await page.getByLabel("Your question").fill('How did my AAPL trades go? #tool:list_trades:{"symbol":"AAPL"} #cite');
    await page.getByRole("button", { name: "Ask" }).click();
    const messages = page.getByRole("list", { name: "Messages" });
    await messages.getByText("Read 1 trade of AAPL").waitFor();
    const citation = messages.getByRole("link", { name: "AAPL 2024-03-01" });
    await citation.waitFor();
    await messages.getByText(/[\d,]+ credits · [\d,]+ tokens in/).waitFor();
    // The conversation took the question as its title, and the balance went down.
    await page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /How did my AAPL trades go/ }).waitFor();
    await expect.poll(async () => (await page.getByText(/credits available/).textContent()) ?? "").not.toContain("500 credits");
    await citation.click();
    await page.waitForURL(/\/trades\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: /AAPL/ }).first().waitFor();
    await page.goBack();
    await page.getByRole("list", { name: "Messages" }).getByRole("link", { name: "AAPL 2024-03-01" }).waitFor();
  });

  it("Stop keeps what was written; a provider failure says so and Retry asks again", async () => {
    const { page, errors } = t;
    await go("/advisor");
    await page.getByLabel("Your question").fill("Tell me a long story #chunks:200 #slow:100");
    await page.getByRole("button", { name: "Ask" }).click();
    const messages = page.getByRole("list", { name: "Messages" });
    await messages.getByText(/word word/).waitFor();
    await messages.getByRole("button", { name: "Stop" }).click();
    await messages.getByText("Stopped. What was written so far is kept.").waitFor();
    expect(await messages.textContent()).toContain("word");

    await page.getByLabel("Your question").fill("And now? #status:503");
    await page.getByRole("button", { name: "Ask" }).click();
    await messages.getByText("The provider did not answer. Try again in a moment.").waitFor();
    await messages.getByRole("button", { name: "Retry" }).click();
    await messages.getByText("The provider did not answer. Try again in a moment.").waitFor();
    // Reopened, the conversation shows what was stored: the stopped answer and the failed ones.
    await page.reload();
    await messages.getByText("This answer stopped before the end.").waitFor();
    await expect.poll(() => messages.getByText("There is no answer to this message: the provider failed.").count()).toBe(2);
    expect(errors).toEqual([]);
  });
});
