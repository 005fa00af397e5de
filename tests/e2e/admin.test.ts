// The admin console in Chromium: an operator-made admin finds a user, promotes them with a reason, and sees
// the entry in the audit log; a trader sees no Admin entry. "What's new" lists the release notes.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runCliProcess } from "../support/cli.ts";
import { signedInTrader, testClientAddress, type TraderPage } from "./browser.ts";

describe("the admin console", () => {
  let admin: TraderPage;
  let adminEmail = "";
  const targetEmail = `promoted-${Date.now()}@example.com`;
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    admin = await signedInTrader(base(), "console-admin");
    adminEmail = ((await (await admin.context.request.get(`${base()}/api/auth/me`)).json()) as { user: { email: string } }).user.email;
    const promoted = await runCliProcess(inject("e2eDatabaseUrl"), ["promote-admin", adminEmail]);
    expect(promoted.code, promoted.out).toBe(0);
    const reg = await fetch(`${base()}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": testClientAddress() },
      body: JSON.stringify({ email: targetEmail, password: "correct horse battery" }),
    });
    expect(reg.status).toBe(201);
  }, 60_000);
  afterAll(() => admin?.browser.close());

  it("an admin promotes a user with a reason and sees the audit entry", async () => {
    const { page } = admin;
    await page.goto(`${base()}/accounts`);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click();
    await page.getByRole("table", { name: "Users, newest first" }).waitFor();
    await page.getByLabel("Email starts with").fill("promoted-");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: targetEmail }).click();
    await page.getByRole("heading", { name: targetEmail }).waitFor();
    await page.getByRole("button", { name: "Promote to administrator" }).click();
    await page.getByLabel("Reason (optional)").fill("runs the Tuesday desk");
    await page.getByRole("button", { name: "Confirm: promote to administrator" }).click();
    await page.getByText("Saved, and written to the audit log.").waitFor();
    await page.getByText("Administrator", { exact: true }).waitFor();

    await page.getByRole("link", { name: "This user's audit entries" }).click();
    const row = page.getByRole("table", { name: /Audit log/ }).getByRole("row", { name: /Promoted to admin/ });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain(adminEmail);
    expect(text).toContain(targetEmail);
    expect(text).toContain("runs the Tuesday desk");
    expect(admin.errors).toEqual([]);
  });

  it("a trader has no Admin entry, and the admin pages answer that they are for administrators", async () => {
    const trader = await signedInTrader(base(), "not-an-admin");
    try {
      await trader.page.goto(`${base()}/accounts`);
      await trader.page.getByRole("navigation", { name: "Main" }).waitFor();
      expect(await trader.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).count()).toBe(0);
      // A page that says so, not a failed request.
      await trader.page.goto(`${base()}/admin`);
      await trader.page.getByRole("heading", { level: 1, name: "Not authorised" }).waitFor();
      await trader.page.getByText("The admin console is for this journal's administrators.").waitFor();
    } finally {
      await trader.browser.close();
    }
  });

  it("What's new shows the unread count, renders the notes as safe markdown, and clears the count once read", async () => {
    const { page } = admin;
    await page.goto(`${base()}/accounts`);
    const entry = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /What's new/ });
    await expect.poll(() => entry.innerText()).toContain("1");
    await entry.click();
    await page.getByRole("heading", { name: "Release v2.0.0" }).waitFor();
    await page.getByRole("heading", { name: "Market data" }).waitFor();
    await page.getByText("Symbol search as you type.").waitFor();
    expect(await page.locator(".release b").count()).toBe(0);
    await page.getByText("<b>raw html</b> stays text.").waitFor();
    await expect.poll(() => entry.innerText()).toBe("What's new");
    await page.reload();
    await page.getByRole("heading", { name: "Release v1.0.0" }).waitFor();
    // After a reload the count comes from the server again: read, it stays cleared (polled: the page's first
    // paint may come before the count's answer on a busy machine).
    await expect.poll(() => entry.innerText()).toBe("What's new");
  });
});
