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
});
