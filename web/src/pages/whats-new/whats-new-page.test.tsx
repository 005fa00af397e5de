import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp, stubApi, USER } from "../../test/render.tsx";

const NOTES = { name: "This version (2.4.0)", tag: "v2.4.0", publishedAt: "2026-11-20T10:00:00.000Z", url: "", body: "### Faster charts\n\n- A two-day chart in 4 ms." };

describe("What's new", () => {
  it("on a closed network shows the notes the instance ships, and says so", async () => {
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/changelog": { releases: [NOTES], unread: 0, stale: true, shipped: true },
      "POST /api/changelog/viewed": new Response(null, { status: 204 }),
    });
    renderApp("/whats-new");
    expect(await screen.findByRole("heading", { name: "This version (2.4.0)" })).toBeTruthy();
    expect(screen.getByText("The release notes this instance was installed with: the project's release list cannot be reached from here.")).toBeTruthy();
    expect(screen.queryByText(/may be out of date/)).toBeNull();
    expect(screen.getByText("A two-day chart in 4 ms.")).toBeTruthy();
  });

  it("an old copy of the release list says it may be out of date", async () => {
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/changelog": { releases: [{ ...NOTES, name: "v2.4.0", url: "https://example.com/v2.4.0" }], unread: 0, stale: true, shipped: false },
      "POST /api/changelog/viewed": new Response(null, { status: 204 }),
    });
    renderApp("/whats-new");
    expect(await screen.findByRole("heading", { name: "v2.4.0" })).toBeTruthy();
    expect(screen.getByText(/These notes may be out of date/)).toBeTruthy();
  });
});
