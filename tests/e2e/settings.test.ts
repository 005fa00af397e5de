// Settings at phone width (390 px) in Chromium: the sessions page's buttons and the account page's forms are
// fully on screen, with no sideways scrolling; the password is changed through the account page.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

describe("Settings at phone width", () => {
  let t: TraderPage;
  beforeAll(async () => {
    t = await signedInTrader(inject("baseUrl"), "phone");
    await t.page.setViewportSize({ width: 390, height: 844 });
  });
  afterAll(() => t?.browser.close());

  const onScreen = async (name: string) => {
    const box = await t.page.getByRole("button", { name, exact: true }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x, name).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
  };
  const noSidewaysScroll = async () => expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  it("sessions: the Sign out button is on screen", async () => {
    await t.page.goto(`${inject("baseUrl")}/settings/sessions`);
    await t.page.getByRole("table", { name: "Your sessions, newest first" }).waitFor();
    await onScreen("Sign out");
    await noSidewaysScroll();
  });

  it("account: the profile and the password form fit, and the password changes", async () => {
    await t.page.goto(`${inject("baseUrl")}/settings/account`);
    await t.page.getByRole("heading", { name: "Change your password" }).waitFor();
    await onScreen("Change password");
    await noSidewaysScroll();
    await t.page.getByLabel("Current password").fill("correct horse battery");
    await t.page.getByLabel("New password").fill("a new horse battery");
    await t.page.getByRole("button", { name: "Change password" }).click();
    await t.page.getByText("Password changed. Every other session is signed out and every access token revoked.").waitFor();
    expect(t.errors).toEqual([]);
  });

  it("account: deleting the account needs the password and the words, then signs out for good", async () => {
    await t.page.goto(`${inject("baseUrl")}/settings/account`);
    await t.page.getByRole("heading", { name: "Delete your account" }).waitFor();
    await onScreen("Delete my account");
    await noSidewaysScroll();
    await t.page.getByRole("button", { name: "Delete my account" }).click();
    await t.page.getByText('Type "delete my account" must be exactly "delete my account".').waitFor();
    // The access tokens' form asks for the password too: this one is the deletion's.
    const deletion = t.page.getByRole("form", { name: "Delete your account" });
    await deletion.getByLabel("Your password", { exact: true }).fill("a new horse battery");
    await deletion.getByLabel('Type "delete my account"').fill("delete my account");
    await t.page.getByRole("button", { name: "Delete my account" }).click();
    await t.page.waitForURL(/\/sign-in\?deleted=1$/);
    await t.page.getByText("Your account and everything in it have been deleted.").waitFor();
    const me = await t.context.request.get(`${inject("baseUrl")}/api/auth/me`);
    expect(me.status()).toBe(401);
    expect(t.errors).toEqual([]);
  });
});
