import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp, stubApi, USER } from "../../test/render.tsx";

describe("the advisor page", () => {
  it("puts a question prepared elsewhere (?ask=) in the box, for the trader to send", async () => {
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/config": { weekStartDay: 1, quotes: false, billing: false, pro: false, email: false, objectStorage: false, analytics: false },
      "GET /api/advisor/provider-keys": { keys: [{ provider: "openai", hint: "…abcd", defaultModel: "gpt-4o-mini", verified: true, createdAt: "2026-01-01T00:00:00.000Z" }] },
      "GET /api/advisor/conversations": { conversations: [], nextCursor: null },
      "GET /api/advisor/settings": { shareJournal: true },
    });
    renderApp(`/advisor?ask=${encodeURIComponent("Draft my weekly recap for the week of Nov 23 – 29, 2026")}`);
    expect(((await screen.findByLabelText("Your question")) as HTMLTextAreaElement).value).toBe("Draft my weekly recap for the week of Nov 23 – 29, 2026");
  });

  it("the first screen says, while sharing is off, that answers about the journal need it on; with sharing on, it does not", async () => {
    const stubs = (shareJournal: boolean) => ({
      "GET /api/auth/session": { user: USER },
      "GET /api/config": { weekStartDay: 1, quotes: false, billing: false, pro: false, email: false, objectStorage: false, analytics: false },
      "GET /api/advisor/provider-keys": { keys: [{ provider: "openai", hint: "…abcd", defaultModel: "gpt-4o-mini", verified: true, createdAt: "2026-01-01T00:00:00.000Z" }] },
      "GET /api/advisor/conversations": { conversations: [], nextCursor: null },
      "GET /api/advisor/settings": { shareJournal },
    });
    stubApi(stubs(false));
    const first = renderApp("/advisor");
    expect(await screen.findByText(/Sharing is off, so the advisor cannot read your trades/)).toBeTruthy();
    first.unmount();
    stubApi(stubs(true));
    renderApp("/advisor");
    await screen.findByLabelText("Your question");
    await screen.findByText(/Ask about your own record/);
    expect(screen.queryByText(/Sharing is off/)).toBeNull();
  });
});
