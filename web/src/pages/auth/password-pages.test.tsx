import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope, json, renderApp, stubApi, USER } from "../../test/render.tsx";

const signedOut = { "GET /api/auth/session": { user: null } };
const TOKEN = "t".repeat(43);

describe("the emailed-link pages and the forgotten password", () => {
  it("sign-in links to the forgotten-password page, which asks for a link and says what to expect", async () => {
    const sent: unknown[] = [];
    stubApi({ ...signedOut, "POST /api/auth/password-reset/request": ({ body }) => (sent.push(body), new Response(null, { status: 202 })) });
    const { router } = renderApp("/sign-in");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("link", { name: "Forgot your password?" }));
    expect(router.state.location.pathname).toBe("/forgot-password");
    await user.click(await screen.findByRole("button", { name: "Send the link" }));
    expect(screen.getByText("Email is required.")).toBeTruthy();
    expect(sent).toEqual([]);
    await user.type(screen.getByLabelText("Email"), " trader@example.com ");
    await user.click(screen.getByRole("button", { name: "Send the link" }));
    expect(await screen.findByText(/a link to choose a new password is on its way/)).toBeTruthy();
    expect(sent).toEqual([{ email: "trader@example.com" }]);
  });

  it("the reset link sets a new password once; a used or expired link says so and offers a new one", async () => {
    const sent: unknown[] = [];
    let answer = new Response(null, { status: 204 });
    stubApi({ ...signedOut, "POST /api/auth/password-reset/confirm": ({ body }) => (sent.push(body), answer) });
    renderApp(`/reset-password?token=${TOKEN}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("New password"), "short");
    await user.click(screen.getByRole("button", { name: "Save the new password" }));
    expect(screen.getByText(/must be at least 8 characters/)).toBeTruthy();
    expect(sent).toEqual([]);
    await user.type(screen.getByLabelText("New password"), " and long now");
    answer = envelope(400, "VALIDATION_ERROR", "This link is not valid any more.", [{ path: "token", message: "is not valid" }]);
    await user.click(screen.getByRole("button", { name: "Save the new password" }));
    expect(await screen.findByText("The password was not changed.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Ask for a new link" })).toBeTruthy();
    answer = new Response(null, { status: 204 });
    await user.click(screen.getByRole("button", { name: "Save the new password" }));
    expect(await screen.findByText(/Your password is changed/)).toBeTruthy();
    expect(sent.at(-1)).toEqual({ token: TOKEN, password: "short and long now" });
  });

  it("a reset link without its token says it is incomplete", async () => {
    stubApi(signedOut);
    renderApp("/reset-password");
    expect(await screen.findByText(/This link is incomplete/)).toBeTruthy();
  });

  it("the confirmation link confirms the address once", async () => {
    const sent: unknown[] = [];
    stubApi({ ...signedOut, "POST /api/auth/verify-email": ({ body }) => (sent.push(body), json({ user: { ...USER, emailVerified: true } })) });
    renderApp(`/verify-email?token=${TOKEN}`);
    expect(await screen.findByText("Your email address is confirmed. Thank you.")).toBeTruthy();
    expect(sent).toEqual([{ token: TOKEN }]);
  });
});

describe("Settings > Account", () => {
  it("shows the email and its state, and changes the password after checking the fields", async () => {
    const sent: unknown[] = [];
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/config": { weekStartDay: 1, quotes: false, billing: false, pro: false, email: true, objectStorage: false, analytics: false },
      "POST /api/auth/password": ({ body }) => (sent.push(body), new Response(null, { status: 204 })),
      "POST /api/auth/verify-email/resend": () => new Response(null, { status: 202 }),
    });
    renderApp("/settings/account");
    const user = userEvent.setup();
    expect(await screen.findByText(USER.email)).toBeTruthy();
    expect(screen.getByText("Not yet")).toBeTruthy();
    await user.click(await screen.findByRole("button", { name: "Send the confirmation link again" }));
    expect(await screen.findByText(`A new link is on its way to ${USER.email}.`)).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect(screen.getAllByText(/is required/).length).toBeGreaterThan(0);
    expect(sent).toEqual([]);
    await user.type(screen.getByLabelText("Current password"), "old password");
    await user.type(screen.getByLabelText("New password"), "a brand new password");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    await waitFor(() => expect(sent).toEqual([{ currentPassword: "old password", newPassword: "a brand new password" }]));
    expect(await screen.findByText("Password changed. Every other session is signed out and every access token revoked.")).toBeTruthy();
  });
});
