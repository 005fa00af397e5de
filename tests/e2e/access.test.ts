// Access settings in Chromium, at desktop (1280) and phone (390) width. Two-factor sign-in: set up from
// Settings > Account (the QR code and the secret shown, confirmed with the authenticator's code, the 10 backup
// codes shown once), then signing in again takes the password and then a code: a wrong one is explained, the
// right one signs in. An access token: made with its scopes, shown once, reads the API with no cookie, listed
// as used, revoked. No sideways scrolling. Screenshots go to test-results/screenshots.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { totpCode } from "../../lib/auth/two-factor.ts";
import { request as playwrightRequest } from "playwright-core";
import { SCREENSHOTS, signedInTrader, type TraderPage } from "./browser.ts";

const base = () => inject("baseUrl");

for (const width of [1280, 390] as const) {
  describe(`access settings at ${width} px`, () => {
    let t: TraderPage;
    let secret = "";
    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      t = await signedInTrader(base(), `two-factor-${width}`, width);
    });
    afterAll(() => t?.browser.close());

    const shot = (name: string) => t.page.screenshot({ path: `${SCREENSHOTS}${name}-${width}.png`, fullPage: true });
    const noSidewaysScroll = async () => expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    it("personal settings sit under one Settings menu item, with tabs between its pages", async () => {
      const { page } = t;
      await page.goto(`${base()}/dashboard`);
      if (width === 390) await page.getByRole("button", { name: "Menu" }).click();
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const gone of ["Account", "Advisor keys", "Billing", "Sessions"]) expect(await nav.getByRole("link", { name: gone, exact: true }).count()).toBe(0);
      await nav.getByRole("link", { name: "Settings" }).click();
      await page.waitForURL(/\/settings\/account$/);
      const tabs = page.getByRole("navigation", { name: "Settings sections" });
      await tabs.getByRole("link", { name: "Sessions" }).click();
      await page.getByRole("heading", { level: 1, name: "Sessions" }).waitFor();
      await noSidewaysScroll();
      if (width === 390) await page.getByRole("button", { name: "Menu" }).click();
      await expect(nav.getByRole("link", { name: "Settings" }).getAttribute("class")).resolves.toContain("active");
    });

    it("turned on from the account page: QR code, secret, a code, and 10 backup codes shown once", async () => {
      const { page } = t;
      await page.goto(`${base()}/settings/account`);
      const panel = page.getByRole("region", { name: "Two-factor sign-in" });
      await panel.getByText("Two-factor sign-in is off").waitFor();
      await panel.getByRole("button", { name: "Set up two-factor sign-in" }).click();
      await panel.getByRole("img", { name: "QR code of your authenticator secret" }).waitFor();
      secret = (await panel.locator(".two-factor-setup__secret").innerText()).replace(/\s+/g, "");
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await noSidewaysScroll();
      await shot("two-factor-setup");
      // The code of the step before this one (accepted, one step either side), so the sign-in below can use this step's.
      await panel.getByLabel("Code from the app").fill(totpCode(secret, new Date(Date.now() - 30_000)));
      await panel.getByRole("button", { name: "Turn on" }).click();
      const codes = panel.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
      await codes.first().waitFor();
      expect(await codes.count()).toBe(10);
      await expect(panel.getByRole("link", { name: "Download" }).getAttribute("download")).resolves.toBe("trading-journal-backup-codes.txt");
      await noSidewaysScroll();
      await shot("two-factor-backup-codes");
      await panel.getByRole("button", { name: "I have saved them" }).click();
      await panel.getByText("Backup codes left: 10 of 10.").waitFor();
      await expect(panel.getByRole("list", { name: "Backup codes" }).count()).resolves.toBe(0);
    });

    it("signing in again: the password, then a code; a wrong code is explained, the right one signs in", async () => {
      const { page, context } = t;
      await context.clearCookies();
      await page.goto(`${base()}/sign-in`);
      await page.getByLabel("Email").fill(t.email);
      await page.getByLabel("Password").fill(t.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
      await page.getByLabel("Code").fill("000000");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByText("That code did not work.").waitFor();
      await noSidewaysScroll();
      await shot("two-factor-sign-in");
      await page.getByLabel("Code").fill(totpCode(secret, new Date()));
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
      const me = await context.request.get(`${base()}/api/auth/me`);
      expect(me.status()).toBe(200);
      expect(t.errors).toEqual([]);
    });

    it("an access token: made with its scopes, shown once, reads the API without a cookie, then revoked", async () => {
      const { page } = t;
      await page.goto(`${base()}/settings/account`);
      const panel = page.getByRole("region", { name: "Access tokens" });
      await panel.getByText("No tokens yet.").waitFor();
      const form = panel.getByRole("form", { name: "New access token" });
      await form.getByLabel("Name").fill("Broker bot");
      await form.getByLabel("Import: CSV preview, commit and undo").check();
      // The password again, and (two-factor sign-in is on) a code: a wrong password is named and makes nothing.
      await form.getByLabel("Your password").fill("not my password");
      await form.getByLabel("Code from your authenticator (or a backup code)").fill(totpCode(secret, new Date(Date.now() + 30_000)));
      await form.getByRole("button", { name: "Make token" }).click();
      await form.getByText("Your password is wrong").waitFor();
      await form.getByLabel("Your password").fill(t.password);
      await form.getByRole("button", { name: "Make token" }).click();
      const token = (await form.locator(".token-value").innerText()).trim();
      expect(token).toMatch(/^tj_/);
      await noSidewaysScroll();
      await shot("access-token");
      // A script: no cookie, the token alone.
      const script = await playwrightRequest.newContext({ extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
      expect((await script.get(`${base()}/api/accounts`)).status()).toBe(200);
      await page.reload();
      const row = panel.getByRole("row", { name: /Broker bot/ });
      await expect(row.innerText()).resolves.toContain("read, import");
      await expect(row.locator('td[data-label="Last used"]').innerText()).resolves.not.toBe("Never");
      await panel.getByRole("button", { name: "Revoke Broker bot" }).click();
      await panel.getByText("No tokens yet.").waitFor();
      expect((await script.get(`${base()}/api/accounts`)).status()).toBe(401);
      await script.dispose();
      expect(t.errors).toEqual([]);
    });
  });
}

// Passkeys need a registrable domain, so these pages are opened at localhost (the same server). Chromium's
// virtual authenticator (DevTools protocol, WebAuthn domain) stands in for the device's platform authenticator.
for (const width of [1280, 390] as const) {
  describe(`passkeys at ${width} px`, () => {
    let t: TraderPage;
    let origin = "";
    beforeAll(async () => {
      origin = base().replace("127.0.0.1", "localhost");
      t = await signedInTrader(origin, `passkey-${width}`, width);
      const cdp = await t.context.newCDPSession(t.page);
      await cdp.send("WebAuthn.enable");
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
    });
    afterAll(() => t?.browser.close());

    const noSidewaysScroll = async () => expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    it("added in Settings, then a sign-in with no password, then asked for after the password", async () => {
      const { page, context } = t;
      await page.goto(`${origin}/settings/account`);
      const panel = page.getByRole("region", { name: "Passkeys" });
      await panel.getByText("No passkeys yet.").waitFor();
      await panel.getByLabel("Name").fill("Laptop");
      await panel.getByRole("button", { name: "Add a passkey" }).click();
      await panel.getByText("Passkey added.").waitFor();
      await panel.getByRole("list", { name: "Your passkeys" }).getByText("Laptop").waitFor();
      await noSidewaysScroll();
      await page.screenshot({ path: `${SCREENSHOTS}passkeys-${width}.png`, fullPage: true });

      // Signed out: the passkey alone signs in.
      await context.clearCookies();
      await page.goto(`${origin}/sign-in`);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
      expect((await context.request.get(`${origin}/api/auth/me`)).status()).toBe(200);

      // Signed out again: the password, then the passkey as the second step.
      await context.clearCookies();
      await page.goto(`${origin}/sign-in`);
      await page.getByLabel("Email").fill(t.email);
      await page.getByLabel("Password").fill(t.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
      await noSidewaysScroll();
      await page.getByRole("button", { name: "Use your passkey" }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
      expect((await context.request.get(`${origin}/api/auth/me`)).status()).toBe(200);
      const list = await context.request.get(`${origin}/api/passkeys`);
      expect(((await list.json()) as { passkeys: Array<{ lastUsedAt: string | null }> }).passkeys[0]!.lastUsedAt).not.toBeNull();
      expect(t.errors).toEqual([]);
    });
  });
}
