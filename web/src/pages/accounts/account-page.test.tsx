import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope, json, renderApp, stubApi, USER } from "../../test/render.tsx";

const ID = "11111111-1111-4111-8111-111111111111";
const ACCOUNT = {
  id: ID,
  name: "Main",
  currency: "USD",
  startingBalance: "1000.00",
  timezone: "Etc/UTC",
  brokerageId: null,
  createdAt: "2026-01-02T00:00:00.000Z",
  balance: "0.30",
  defaultRisk: null,
  taxStatus: "taxable",
  feeSchedule: null,
};
const signedIn = { "GET /api/auth/session": { user: USER }, "GET /api/brokerages": { brokerages: [] } };

function entry(n: number, type: string, amount: string) {
  return { id: `00000000-0000-4000-8000-00000000000${n}`, type, amount, occurredAt: `2026-01-0${n}T12:00:00.000Z`, note: null };
}

describe("the account page", () => {
  it("rebuilds the running balance exactly down the page from runningBalanceAtFirstRow", async () => {
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/ledger/${ID}`]: ({ query }) =>
        json({
          page: Number(query.get("page")),
          pageSize: 50,
          hasMore: true,
          runningBalanceAtFirstRow: "0.30",
          // 0.1 + 0.2 in floats is 0.30000000000000004; the column must still read 0.30, 0.20, 0.10.
          entries: [entry(3, "deposit", "0.1"), entry(2, "deposit", "0.1"), entry(1, "withdrawal", "-999.9")],
        }),
    });
    renderApp(`/accounts/${ID}`);
    const table = await screen.findByRole("table", { name: /Cash ledger/ });
    const rows = within(table).getAllByRole("row").slice(1);
    const balances = rows.map((r) => within(r).getAllByRole("cell")[4]!.textContent);
    expect(balances).toEqual(["$0.30", "$0.20", "$0.10"]);
    expect(within(rows[2]!).getAllByRole("cell")[3]!.textContent).toBe("-$999.90");
    expect(screen.getByRole("button", { name: "Older" })).toHaveProperty("disabled", false);
    expect(screen.getByRole("button", { name: "Newer" })).toHaveProperty("disabled", true);
  });

  it("says what each fill of the ledger was", async () => {
    const fill = {
      ...entry(2, "fill", "-19151.00"),
      fillId: "22222222-2222-4222-8222-222222222222",
      fill: { symbol: "AAPL", side: "buy", quantity: "100.00", price: "191.50" },
    };
    const sold = { ...entry(3, "fill", "4.75"), fillId: "33333333-3333-4333-8333-333333333333", fill: { symbol: "ESZ26", side: "sell", quantity: "1.00", price: "6000.125" } };
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/ledger/${ID}`]: { page: 1, pageSize: 50, hasMore: false, runningBalanceAtFirstRow: "0.30", entries: [sold, fill, { ...entry(1, "deposit", "5"), note: "top-up" }] },
    });
    renderApp(`/accounts/${ID}`);
    const table = await screen.findByRole("table", { name: /Cash ledger/ });
    const notes = within(table).getAllByRole("row").slice(1).map((r) => within(r).getAllByRole("cell")[2]!.textContent);
    expect(notes).toEqual(["Sell 1 ESZ26 at 6,000.125", "Buy 100 AAPL at 191.50", "top-up"]);
  });

  it("tells a new account what to do first when the ledger is empty", async () => {
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/ledger/${ID}`]: { page: 1, pageSize: 50, hasMore: false, runningBalanceAtFirstRow: "0.00", entries: [] },
    });
    renderApp(`/accounts/${ID}`);
    expect(await screen.findByRole("heading", { name: "No cash movements yet" })).toBeTruthy();
  });

  it("checks a deposit before sending it, then records it and announces the outcome", async () => {
    const posted: unknown[] = [];
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/ledger/${ID}`]: { page: 1, pageSize: 50, hasMore: false, runningBalanceAtFirstRow: "0.00", entries: [] },
      [`POST /api/ledger/${ID}/entries`]: ({ body }) => (posted.push(body), json(entry(4, "deposit", "250.50"), 201)),
    });
    renderApp(`/accounts/${ID}`);
    const user = userEvent.setup();
    const amount = await screen.findByLabelText("Amount");
    await user.click(screen.getByRole("button", { name: "Record deposit" }));
    expect(screen.getByText("Amount is required.")).toBeTruthy();
    // Not thousands in groups of three: named, not guessed at.
    await user.type(amount, "1,00");
    await user.click(screen.getByRole("button", { name: "Record deposit" }));
    expect(screen.getByText(/Amount must be a number like 1234.50: digits, an optional "-" and "." for decimals, no commas or spaces/)).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, "-5");
    await user.click(screen.getByRole("button", { name: "Record deposit" }));
    expect(screen.getByText("Amount must be positive (the type gives the direction).")).toBeTruthy();
    expect(posted).toEqual([]);
    await user.clear(amount);
    await user.type(amount, "1,250.50");
    await user.click(screen.getByRole("button", { name: "Record deposit" }));
    await waitFor(() => expect(screen.getByText("Deposit of $1,250.50 recorded.")).toBeTruthy());
    // Typed with a thousands separator, sent as the API takes it.
    expect(posted).toEqual([{ type: "deposit", amount: "1250.50" }]);
  });

  it("deletes an account with history only after the second, explicit confirmation", async () => {
    const deletes: string[] = [];
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/ledger/${ID}`]: { page: 1, pageSize: 50, hasMore: false, runningBalanceAtFirstRow: "0.00", entries: [] },
      [`DELETE /api/accounts/${ID}`]: ({ query }) => {
        deletes.push(query.toString());
        return query.get("confirm") === "delete-history"
          ? new Response(null, { status: 204 })
          : envelope(409, "CONFLICT", "This account has history; repeat with ?confirm=delete-history.");
      },
    });
    const { router } = renderApp(`/accounts/${ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete account" }));
    expect(deletes).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Yes, delete account" }));
    expect(await screen.findByText(/This account has history:/)).toBeTruthy();
    expect(deletes).toEqual([""]);
    await user.click(screen.getByRole("button", { name: "Delete account and all its history" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/accounts"));
    expect(deletes).toEqual(["", "confirm=delete-history"]);
  });

  it("deletes a manual ledger entry only after confirming, and offers no delete for the opening entry", async () => {
    let entries = [entry(2, "deposit", "250.00"), entry(1, "opening", "1000.00")];
    const deleted: string[] = [];
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/ledger/${ID}`]: () => json({ page: 1, pageSize: 50, hasMore: false, runningBalanceAtFirstRow: "1250.00", entries }),
      [`DELETE /api/ledger/${ID}/entries/${entry(2, "", "").id}`]: ({ path }) => {
        deleted.push(path);
        entries = entries.slice(1);
        return new Response(null, { status: 204 });
      },
    });
    renderApp(`/accounts/${ID}`);
    const user = userEvent.setup();
    await screen.findByRole("table", { name: /Cash ledger/ });
    expect(screen.getAllByRole("button", { name: /^Delete .* of / })).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "Delete deposit of $250.00" }));
    expect(deleted).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await user.click(screen.getByRole("button", { name: "Delete deposit of $250.00" }));
    await user.click(screen.getByRole("button", { name: "Delete entry" }));
    await waitFor(() => expect(screen.queryByText("Deposit", { selector: "td" })).toBeNull());
    expect(deleted).toHaveLength(1);
  });
});

describe("editing an account's risk and fees", () => {
  it("sends the default risk and the fee schedule, blank parts left out", async () => {
    const patches: unknown[] = [];
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/ledger/${ID}`]: { page: 1, pageSize: 50, hasMore: false, runningBalanceAtFirstRow: "0", entries: [] },
      "GET /api/journals/impact": { journaledTrades: 0, screenshots: 0 },
      [`PATCH /api/accounts/${ID}`]: ({ body }) => (patches.push(body), json({ ...ACCOUNT, ...(body as object) })),
    });
    renderApp(`/accounts/${ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Edit account" }));
    await user.type(screen.getByLabelText("Default risk per trade"), "250");
    await user.click(screen.getByText("Fee schedule, for files without fees"));
    await user.type(screen.getByLabelText("Stocks: Fee per share"), "0.005");
    await user.type(screen.getByLabelText("Stocks: Minimum"), "1");
    await user.type(screen.getByLabelText("Options: Fee per contract"), "0.65");
    await user.selectOptions(screen.getByLabelText("Tax status"), "ira");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({ defaultRisk: "250", feeSchedule: { stock: { perUnit: "0.005", minimum: "1" }, option: { perUnit: "0.65" } }, taxStatus: "ira" });
  });
});

describe("the account's broker sync", () => {
  const ledger = { [`GET /api/ledger/${ID}`]: { page: 1, pageSize: 50, hasMore: false, runningBalanceAtFirstRow: "0.30", entries: [] } };

  it("a broken connection says why, pauses syncing and asks for a new token; the field errors of a refused one show on the fields", async () => {
    const sent: unknown[] = [];
    stubApi({
      ...signedIn,
      ...ledger,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/accounts/${ID}/broker-connection`]: {
        connection: {
          provider: "ibkr-flex", queryId: "987654", startDate: "2024-01-19", tokenHintTail: "abcd", verified: false,
          broken: "Interactive Brokers (error 1012): the token has expired: generate a new one in Client Portal (Flex Web Service configuration).",
          lastRun: null,
        },
      },
      [`GET /api/accounts/${ID}/broker-connection/runs`]: {
        runs: [{ id: "r1", trigger: "schedule", status: "failed", startedAt: "2026-01-03T06:00:00.000Z", finishedAt: "2026-01-03T06:00:02.000Z", imported: 0, duplicates: 0, skippedDeleted: 0, error: "Interactive Brokers (error 1012): the token has expired.", importId: null }],
      },
      [`PUT /api/accounts/${ID}/broker-connection`]: ({ body }) => {
        sent.push(body);
        return envelope(400, "VALIDATION_ERROR", "Interactive Brokers (error 1015): the token is not valid.", [{ path: "token", message: "the token is not valid." }]);
      },
    });
    renderApp(`/accounts/${ID}`);
    const panel = await screen.findByRole("region", { name: "Broker sync" });
    expect((await within(panel).findByRole("alert")).textContent).toContain("the token has expired");
    expect(within(panel).getByText("Broken")).toBeTruthy();
    expect(within(panel).getByRole("button", { name: "Sync now" })).toHaveProperty("disabled", true);
    expect(await within(panel).findByText(/Last sync .*Failed: Interactive Brokers \(error 1012\)/)).toBeTruthy();
    const user = userEvent.setup();
    await user.type(within(panel).getByLabelText("Flex Web Service token"), "newtoken0000111122");
    await user.type(within(panel).getByLabelText("Query ID"), "987654");
    await user.click(within(panel).getByRole("button", { name: "Connect" }));
    expect((await within(panel).findAllByText(/token is not valid/)).length).toBeGreaterThan(0);
    expect(within(panel).getByLabelText("Flex Web Service token").getAttribute("aria-invalid")).toBe("true");
    // The start date saved is kept (the form starts from it) and sent again with the new token.
    expect(within(panel).getByText("2024-01-19")).toBeTruthy();
    expect((within(panel).getByLabelText("Import from") as HTMLInputElement).value).toBe("2024-01-19");
    expect(sent).toEqual([{ provider: "ibkr-flex", token: "newtoken0000111122", queryId: "987654", startDate: "2024-01-19" }]);
  });

  it("connects another broker: its steps name the read-only permission, its own fields are sent, and the connection shows its account", async () => {
    const sent: unknown[] = [];
    let connection: unknown = null;
    stubApi({
      ...signedIn,
      ...ledger,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/accounts/${ID}/broker-connection`]: () => json({ connection }),
      [`GET /api/accounts/${ID}/broker-connection/runs`]: { runs: [] },
      [`PUT /api/accounts/${ID}/broker-connection`]: ({ body }) => {
        sent.push(body);
        connection = { provider: "alpaca", paper: true, accountNumber: "PA3XYZ0001", startDate: null, tokenHintTail: "WXYZ", verified: true, broken: null, lastRun: null };
        return json(connection);
      },
    });
    renderApp(`/accounts/${ID}`);
    const panel = await screen.findByRole("region", { name: "Broker sync" });
    const user = userEvent.setup();
    await user.selectOptions(await within(panel).findByLabelText("Broker"), "kraken");
    expect(within(panel).getByText(/Query closed orders & trades/)).toBeTruthy();
    expect(within(panel).queryByLabelText("Query ID")).toBeNull();
    await user.selectOptions(within(panel).getByLabelText("Broker"), "alpaca");
    await user.click(within(panel).getByRole("button", { name: "Connect" }));
    expect(within(panel).getByLabelText("API key ID").getAttribute("aria-invalid")).toBe("true");
    expect(sent).toEqual([]);
    await user.type(within(panel).getByLabelText("API key ID"), "PKABCDEFGHWXYZ");
    await user.type(within(panel).getByLabelText("Secret key"), "secretsecretsecret1234");
    await user.click(within(panel).getByLabelText(/Paper trading account/));
    await user.click(within(panel).getByRole("button", { name: "Connect" }));
    await waitFor(() => expect(sent).toEqual([{ provider: "alpaca", keyId: "PKABCDEFGHWXYZ", secret: "secretsecretsecret1234", paper: true, startDate: null }]));
    expect(await within(panel).findByText("PA3XYZ0001 (paper)")).toBeTruthy();
    expect(within(panel).getByText("Alpaca")).toBeTruthy();
  });

  it("pauses and resumes the schedule, tests the kept keys, and says what a run left out and why", async () => {
    const sent: Array<{ method: string; body: unknown }> = [];
    let connection = { provider: "alpaca", paper: false, accountNumber: "PA3XYZ0001", startDate: null, tokenHintTail: "WXYZ", verified: true, broken: null as string | null, needsReauth: false, paused: false, lastRun: null };
    stubApi({
      ...signedIn,
      ...ledger,
      "GET /api/accounts": { accounts: [ACCOUNT] },
      [`GET /api/accounts/${ID}`]: ACCOUNT,
      [`GET /api/accounts/${ID}/broker-connection`]: () => json({ connection }),
      [`GET /api/accounts/${ID}/broker-connection/runs`]: {
        runs: [{ id: "r1", trigger: "manual", status: "succeeded", startedAt: "2026-01-03T06:00:00.000Z", finishedAt: "2026-01-03T06:00:02.000Z", imported: 4, duplicates: 1, skippedDeleted: 1, skipped: [{ reason: "not a trade (a cash movement, dividend, transfer or note)", count: 3 }, { reason: "deleted by you: a sync does not bring it back", count: 1 }], error: null, importId: "i1" }],
      },
      [`PATCH /api/accounts/${ID}/broker-connection`]: ({ body }) => {
        sent.push({ method: "PATCH", body });
        connection = { ...connection, paused: (body as { paused: boolean }).paused };
        return json(connection);
      },
      [`POST /api/accounts/${ID}/broker-connection/test`]: () => {
        sent.push({ method: "POST", body: null });
        connection = { ...connection, broken: "Alpaca: the API key was refused (HTTP 401)." };
        return json({ ok: false, message: "Alpaca: the API key was refused (HTTP 401).", connection });
      },
    });
    renderApp(`/accounts/${ID}`);
    const panel = await screen.findByRole("region", { name: "Broker sync" });
    expect(await within(panel).findByText(/^Last sync .*: 4 fills imported, 1 already here; left out: 3 not a trade .*; 1 deleted by you/)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(within(panel).getByRole("button", { name: "Pause the schedule" }));
    await within(panel).findByText("Paused: not pulled on the schedule");
    await user.click(within(panel).getByRole("button", { name: "Resume the schedule" }));
    await within(panel).findByRole("button", { name: "Pause the schedule" });
    await user.click(within(panel).getByRole("button", { name: "Test the connection" }));
    expect(await within(panel).findByText(/Alpaca refused it: Alpaca: the API key was refused/)).toBeTruthy();
    await within(panel).findByText("Broken");
    expect(sent).toEqual([{ method: "PATCH", body: { paused: true } }, { method: "PATCH", body: { paused: false } }, { method: "POST", body: null }]);
  });
});
