import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope, json, renderApp, stubApi, USER } from "../../test/render.tsx";

const signedIn = { "GET /api/auth/session": { user: USER }, "GET /api/brokerages": { brokerages: [] } };

describe("the accounts page", () => {
  it("asks a new user to create their first account, and checks the form before sending", async () => {
    const mock = stubApi({ ...signedIn, "GET /api/accounts": { accounts: [] } });
    renderApp("/accounts");
    expect(await screen.findByRole("heading", { name: "Create your first account" })).toBeTruthy();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText("Currency"));
    await user.type(screen.getByLabelText("Currency"), "US");
    await user.type(screen.getByLabelText("Starting balance"), "1e3");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(screen.getByText("Account name must not be empty.")).toBeTruthy();
    expect(screen.getByText("Currency must be a 3-letter ISO 4217 currency code such as USD.")).toBeTruthy();
    expect(screen.getByText(/Starting balance must be a number like 1234.50/)).toBeTruthy();
    expect(mock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });

  it("creates the account with the chosen time zone and opens it; a duplicate name shows by the field", async () => {
    const bodies: unknown[] = [];
    const created = {
      id: "22222222-2222-4222-8222-222222222222",
      name: "Swing",
      currency: "EUR",
      startingBalance: "5000.00",
      timezone: "Europe/Berlin",
      brokerageId: null,
      createdAt: "2026-01-02T00:00:00.000Z",
      balance: "5000.00",
    };
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [] },
      "POST /api/accounts": ({ body }) => {
        bodies.push(body);
        return bodies.length === 1
          ? envelope(409, "CONFLICT", "You already have an account with this name.") // as the API answers: no `fields` on a 409
          : json(created, 201);
      },
      [`GET /api/accounts/${created.id}`]: created,
      [`GET /api/ledger/${created.id}`]: { page: 1, pageSize: 50, hasMore: false, runningBalanceAtFirstRow: "5000.00", entries: [] },
    });
    const { router } = renderApp("/accounts");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Account name"), "Swing");
    await user.clear(screen.getByLabelText("Currency"));
    await user.type(screen.getByLabelText("Currency"), "eur");
    await user.type(screen.getByLabelText("Starting balance"), "5,000");
    await user.type(screen.getByLabelText("Search time zones"), "berlin");
    await user.selectOptions(screen.getByLabelText("Time zone", { selector: "select" }), "Europe/Berlin");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("Account name is already used by another account.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/accounts/${created.id}`));
    expect(bodies[1]).toEqual({ name: "Swing", currency: "EUR", startingBalance: "5000", timezone: "Europe/Berlin", brokerageId: null });
  });
});

describe("the brokerage picker", () => {
  it("offers the brokers the importer knows, except those already added; choosing one adds it and selects it", async () => {
    const added: unknown[] = [];
    let mine = [{ id: "b1", name: "Webull", createdAt: "2026-01-01T00:00:00.000Z" }];
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [] },
      "GET /api/brokerages": () => json({ brokerages: mine }),
      "GET /api/csv-import/presets": {
        presets: [
          { id: "generic", name: "Generic executions (template)" },
          { id: "ibkr-flex", name: "Interactive Brokers: Flex Query trades (CSV)" },
          { id: "ibkr-activity", name: "Interactive Brokers: Activity Statement trades (CSV)" },
          { id: "webull", name: "Webull: order history" },
          { id: "tastytrade", name: "tastytrade: transaction history" },
        ],
      },
      "POST /api/brokerages": ({ body }) => {
        added.push(body);
        const b = { id: "b2", name: (body as { name: string }).name, createdAt: "2026-01-02T00:00:00.000Z" };
        mine = [...mine, b];
        return json(b, 201);
      },
    });
    renderApp("/accounts");
    const select = (await screen.findByLabelText("Brokerage")) as HTMLSelectElement;
    const group = await waitFor(() => {
      const g = select.querySelector('optgroup[label="Brokers the importer knows"]');
      if (!g) throw new Error("no group yet");
      return g;
    });
    expect([...group.querySelectorAll("option")].map((o) => o.textContent)).toEqual(["Interactive Brokers", "tastytrade"]);
    const user = userEvent.setup();
    await user.selectOptions(select, "Interactive Brokers");
    await waitFor(() => expect(added).toEqual([{ name: "Interactive Brokers" }]));
    await waitFor(() => expect(select.value).toBe("b2"));
  });
});
