import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { envelope, json, renderApp, stubApi, USER } from "../../test/render.tsx";

afterEach(() => {
  delete window.__JOURNAL_CONFIG__;
});

const signedOut = { "GET /api/auth/session": { user: null } };

describe("the register page", () => {
  it("shows a closed-sign-ups notice with the newsletter link from /config.js instead of the form", async () => {
    window.__JOURNAL_CONFIG__ = { newsletterUrl: "https://news.example.com/signup" };
    stubApi({ ...signedOut, "GET /api/config/public": { registrationOpen: false, newsletterUrl: null } });
    renderApp("/register");
    expect(await screen.findByText("Sign-ups are closed on this instance for now.")).toBeTruthy();
    const link = screen.getByRole("link", { name: "Join the newsletter" });
    expect(link.getAttribute("href")).toBe("https://news.example.com/signup");
    expect(screen.queryByLabelText("Email")).toBeNull();
    expect(screen.queryByRole("button", { name: "Create account" })).toBeNull();
  });

  it("shows the notice without a link when no newsletter is configured, and never a javascript: link", async () => {
    window.__JOURNAL_CONFIG__ = { newsletterUrl: "javascript:alert(1)" };
    stubApi({ ...signedOut, "GET /api/config/public": { registrationOpen: false, newsletterUrl: null } });
    renderApp("/register");
    expect(await screen.findByText("Sign-ups are closed on this instance for now.")).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Join the newsletter" })).toBeNull();
    expect(screen.getByText("Check back later.")).toBeTruthy();
  });

  it("shows the form while sign-up is open, and checks the fields before sending", async () => {
    const mock = stubApi({ ...signedOut, "GET /api/config/public": { registrationOpen: true, newsletterUrl: null } });
    renderApp("/register");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Create account" }));
    expect(screen.getByText("Email is required.")).toBeTruthy();
    expect(screen.getByText("Password is required.")).toBeTruthy();
    // Focus lands on the first field to fix.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Email")));
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.type(screen.getByLabelText("Password"), "short");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(screen.getByText("Email must be an email address.")).toBeTruthy();
    expect(screen.getByText("Password must be at least 8 characters.")).toBeTruthy();
    // The error is tied to its input for assistive technology.
    const password = screen.getByLabelText("Password");
    expect(password.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(password.getAttribute("aria-describedby")!.split(" ").at(-1)!)?.textContent).toBe(
      "Password must be at least 8 characters.",
    );
    expect(mock.mock.calls.some(([url]) => String(url).includes("/api/auth/register"))).toBe(false);
  });

  it("shows the server's field error next to the field and signs the new user in on success", async () => {
    let attempts = 0;
    stubApi({
      ...signedOut,
      "GET /api/config/public": { registrationOpen: true, newsletterUrl: null },
      "POST /api/auth/register": ({ body }) =>
        ++attempts === 1
          ? envelope(409, "CONFLICT", "An account with this email already exists.", [{ path: "email", message: "is already registered" }])
          : json({ user: { ...USER, email: (body as { email: string }).email } }, 201),
      "GET /api/accounts": { accounts: [] },
    });
    renderApp("/register");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Email"), "trader@example.com");
    await user.type(screen.getByLabelText("Password"), "long enough password");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("Email is already registered.")).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("An account with this email already exists.");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByRole("heading", { name: "Create your first account" })).toBeTruthy();
  });

  it("returns to the setup page when it sent the new user here, and nowhere else a link names", async () => {
    for (const [next, lands] of [["/setup/admin", "/setup/admin"], ["/admin", "/accounts"], ["https://evil.example/", "/accounts"]] as const) {
      stubApi({
        ...signedOut,
        "GET /api/config/public": { registrationOpen: true, newsletterUrl: null },
        "POST /api/auth/register": json({ user: USER }, 201),
        "GET /api/accounts": { accounts: [] },
      });
      const { router, unmount } = renderApp(`/register?next=${encodeURIComponent(next)}`);
      const user = userEvent.setup();
      await user.type(await screen.findByLabelText("Email"), "trader@example.com");
      await user.type(screen.getByLabelText("Password"), "long enough password");
      await user.click(screen.getByRole("button", { name: "Create account" }));
      await waitFor(() => expect(router.state.location.pathname).toBe(lands));
      unmount();
    }
  });

  it("reports a closed instance when the register call itself says so", async () => {
    stubApi({
      ...signedOut,
      "GET /api/config/public": { registrationOpen: true, newsletterUrl: null },
      "POST /api/auth/register": envelope(403, "REGISTRATION_DISABLED", "Registration is closed."),
    });
    renderApp("/register");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Email"), "trader@example.com");
    await user.type(screen.getByLabelText("Password"), "long enough password");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() => expect(screen.getByText("Sign-ups are closed on this instance for now.")).toBeTruthy());
  });
});
