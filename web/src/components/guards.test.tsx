// Where a trader lands and what an honest page says (issue 38): sign-in without a page to return to lands on the
// dashboard; a non-administrator at /admin gets a page saying so; "Forgot password" on an instance without email
// says to ask the operator.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, renderApp, stubApi, USER } from "../test/render.tsx";

const CONFIG = { weekStartDay: 1, quotes: false, billing: false, pro: false, email: false, objectStorage: false, analytics: false };

describe("landing pages and honest states", () => {
  it("signing in with no page to return to lands on the dashboard", async () => {
    let signedIn = false;
    stubApi({
      "GET /api/auth/session": () => json({ user: signedIn ? USER : null }),
      "POST /api/auth/login": () => ((signedIn = true), json({ user: USER })),
    });
    const { router } = renderApp("/sign-in");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Email"), USER.email);
    await user.type(screen.getByLabelText("Password"), "long enough password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("a trader who is not an administrator gets a not-authorised page at /admin, and no admin request", async () => {
    const asked: string[] = [];
    stubApi({
      "GET /api/auth/session": { user: { ...USER, isAdmin: false } },
      "GET /api/admin/users": () => (asked.push("users"), json({ users: [] })),
    });
    renderApp("/admin");
    expect(await screen.findByRole("heading", { name: "Not authorised" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "your dashboard" }).getAttribute("href")).toBe("/dashboard");
    expect(asked).toEqual([]);
  });

  it("without email on the instance, Forgot password says to ask the operator and offers no form", async () => {
    stubApi({ "GET /api/auth/session": { user: null }, "GET /api/config": CONFIG });
    renderApp("/forgot-password");
    expect(await screen.findByText(/This journal does not send email/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Send the link" })).toBeNull();
  });
});
