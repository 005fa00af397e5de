import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { envelope, json, renderApp, stubApi, USER } from "../../test/render.tsx";

const TOKEN = "a".repeat(43);
afterEach(() => window.sessionStorage.clear());

describe("the setup link's page", () => {
  it("signed out: keeps the token in the tab, out of the address, and sends the reader to register and back", async () => {
    stubApi({ "GET /api/auth/session": { user: null } });
    const { router } = renderApp(`/setup/admin#${TOKEN}`);
    const register = await screen.findByRole("link", { name: "Create an account" });
    expect(register.getAttribute("href")).toBe("/register?next=%2Fsetup%2Fadmin");
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/sign-in?next=%2Fsetup%2Fadmin");
    await waitFor(() => expect(router.state.location.hash).toBe(""));
    expect(window.sessionStorage.getItem("journal.setupToken")).toBe(TOKEN);
  });

  it("signed in: sends the remembered token once, says so, and forgets it", async () => {
    window.sessionStorage.setItem("journal.setupToken", TOKEN);
    const sent: unknown[] = [];
    stubApi({
      "GET /api/auth/session": { user: USER },
      "POST /api/admin/setup": async ({ body }) => {
        sent.push(body);
        return json({ user: { ...USER, isAdmin: true } });
      },
    });
    renderApp("/setup/admin");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Make me the administrator" }));
    expect(await screen.findByText(/You are this journal's administrator/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open the admin console" }).getAttribute("href")).toBe("/admin");
    expect(sent).toEqual([{ token: TOKEN }]);
    expect(window.sessionStorage.getItem("journal.setupToken")).toBeNull();
  });

  it("says what went wrong (an administrator already), and without a link says where to find one", async () => {
    window.sessionStorage.setItem("journal.setupToken", TOKEN);
    stubApi({
      "GET /api/auth/session": { user: USER },
      "POST /api/admin/setup": () => envelope(409, "CONFLICT", "This instance has an administrator already: ask them to promote you in the admin console."),
    });
    renderApp("/setup/admin");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Make me the administrator" }));
    expect(await screen.findByText(/has an administrator already/)).toBeTruthy();
  });

  it("without a token, points at the server's output", async () => {
    stubApi({ "GET /api/auth/session": { user: USER } });
    renderApp("/setup/admin");
    expect(await screen.findByText(/needs the setup link the server printed/)).toBeTruthy();
  });
});
