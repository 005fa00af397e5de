// Settings > Advisor keys in Chromium against the real entrypoint, with the providers' stand-in: save a key
// (verified), replace it with one the provider refuses (the old one stays), then one the provider cannot
// check (saved unverified), pick a default model, remove it.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

describe("Settings > Advisor keys", () => {
  let t: TraderPage;
  beforeAll(async () => {
    t = await signedInTrader(inject("baseUrl"), "keys");
  });
  afterAll(() => t?.browser.close());

  it("saves, replaces and removes a key, showing each answer inline and never the key itself", async () => {
    const { page, errors } = t;
    await page.goto(`${inject("baseUrl")}/settings/keys`);
    const card = page.getByRole("region", { name: "Anthropic" });
    await card.getByText("Not set").waitFor();

    const good = `sk-ant-good-${Date.now()}wxyz`;
    await card.getByLabel("API key").fill(good);
    await card.getByRole("button", { name: "Save key" }).click();
    await card.getByText("Saved and verified.").waitFor();
    await card.getByText("Key ending in …wxyz").waitFor();
    await expect.poll(() => card.getByLabel("Default model").inputValue()).toBe("claude-sonnet-4-5-20250929");
    expect(await page.content()).not.toContain(good);

    await card.getByLabel("Default model").selectOption("claude-opus-4-1-20250805");
    await expect.poll(() => card.getByLabel("Default model").inputValue()).toBe("claude-opus-4-1-20250805");

    await card.getByLabel("Replace with a new key").fill("sk-ant-invalid401-abcd");
    await card.getByRole("button", { name: "Replace key" }).click();
    await card.getByRole("alert").getByText(/Anthropic refused this key/).waitFor();
    await card.getByText("Key ending in …wxyz").waitFor();

    await card.getByLabel("Replace with a new key").fill("sk-ant-fail500-0123");
    await card.getByRole("button", { name: "Replace key" }).click();
    await card.getByText("Saved. The provider did not answer; it will be checked on first use.").waitFor();
    await card.getByText("Not verified yet").waitFor();

    await card.getByRole("button", { name: "Remove" }).click();
    await card.getByRole("button", { name: "Yes, remove" }).click();
    await card.getByText("Not set").waitFor();
    expect(errors).toEqual([]);
  });
});
