import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, renderApp, stubApi, USER } from "../../test/render.tsx";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const here = { id: "a".repeat(40), createdAt: "2026-01-02T10:00:00.000Z", lastSeenAt: "2026-01-03T10:00:00.000Z", expiresAt: "2026-02-01T10:00:00.000Z", userAgent: CHROME, current: true };
const other = { ...here, id: "b".repeat(40), userAgent: FIREFOX, current: false };

describe("the sessions page", () => {
  it("lists the sessions and ends another one", async () => {
    let list = [here, other];
    const deleted: string[] = [];
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/auth/sessions": () => json({ sessions: list }),
      [`DELETE /api/auth/sessions/${other.id}`]: () => {
        deleted.push(other.id);
        list = [here];
        return new Response(null, { status: 204 });
      },
    });
    renderApp("/settings/sessions");
    const user = userEvent.setup();
    expect(await screen.findByText("Chrome on Linux")).toBeTruthy();
    expect(screen.getByText("Firefox on Windows")).toBeTruthy();
    expect(screen.getByText("This device")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: /End session: Firefox on Windows/ }));
    await waitFor(() => expect(screen.queryByText("Firefox on Windows")).toBeNull());
    expect(deleted).toEqual([other.id]);
  });

  it("signs out everywhere else in one request", async () => {
    let list = [here, other, { ...other, id: "c".repeat(40), userAgent: null }];
    let calls = 0;
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/auth/sessions": () => json({ sessions: list }),
      "DELETE /api/auth/sessions": () => {
        calls++;
        list = [here];
        return new Response(null, { status: 204 });
      },
    });
    renderApp("/settings/sessions");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Sign out everywhere else" }));
    await waitFor(() => expect(screen.queryByText("Firefox on Windows")).toBeNull());
    expect(calls).toBe(1);
    expect(screen.getByText("Chrome on Linux")).toBeTruthy();
    // Alone now: nothing else to sign out of.
    expect(screen.queryByRole("button", { name: "Sign out everywhere else" })).toBeNull();
  });
});
