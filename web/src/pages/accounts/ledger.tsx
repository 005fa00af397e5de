import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { NewLedgerEntrySchema } from "../../../../lib/ledger/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys, type Account } from "../../api/queries.ts";
import { BaseAmount } from "../../components/base-amount.tsx";
import { EmptyState, ErrorAlert, Loading, StatusMessage, TextAreaField, TextField, ZoneNote } from "../../components/ui.tsx";
import { runningBalances, signOf, typedAmount } from "../../lib/decimal.ts";
import { formatDate, formatMoney, formatNumber, formatPrice, formatTime, priceDecimals, symbolLabel } from "../../lib/format.ts";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { wallToIso, zoneLabel } from "../../lib/zoned-input.ts";
import { DataTable } from "../../components/data-table.tsx";

export const LEDGER_PAGE_SIZE = 50;

const TYPE_LABELS: Record<string, string> = {
  opening: "Opening balance",
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  adjustment: "Adjustment",
  fill: "Fill",
  prop_fee: "Prop-firm fee",
  payout: "Payout",
};
const MANUAL = new Set(["deposit", "withdrawal", "adjustment", "prop_fee", "payout"]);
/** What the form records: cash in and out, and a prop firm's fees (evaluation, reset, activation) and payouts. */
const CASH_TYPES = ["deposit", "withdrawal", "prop_fee", "payout"] as const;
type CashType = (typeof CASH_TYPES)[number];

function useInvalidateLedger(accountId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.ledgerOf(accountId) }),
      queryClient.invalidateQueries({ queryKey: keys.accounts }),
    ]);
}

/** Deposit, withdrawal, a prop firm's fee or a payout: a positive amount, the type gives the direction. */
export function CashEntryForm({ account }: { account: Account }) {
  const invalidate = useInvalidateLedger(account.id);
  const [type, setType] = useState<CashType>("deposit");
  const [amount, setAmount] = useState("");
  const [when, setWhen] = useState("");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState("");
  const add = useMutation({
    mutationFn: (json: { type: CashType; amount: string; occurredAt?: string; note?: string }) =>
      unwrap(api.api.ledger[":accountId"].entries.$post({ param: { accountId: account.id }, json })),
    onSuccess: async (_entry, vars) => {
      await invalidate();
      setAmount("");
      setNote("");
      setWhen("");
      setDone(`${TYPE_LABELS[vars.type]} of ${formatMoney(vars.amount, account.currency)} recorded.`);
    },
  });
  const shown = { ...serverFieldErrors(add.error), ...errors };

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone("");
    const occurredAt = when ? wallToIso(when, account.timezone) : undefined;
    const value = { type, amount: typedAmount(amount), ...(occurredAt ? { occurredAt } : {}), ...(note.trim() ? { note: note.trim() } : {}) };
    const found = schemaErrors(NewLedgerEntrySchema, value);
    if (!value.amount) found.amount = "is required";
    if (when && !occurredAt) found.occurredAt = "must be a valid date and time";
    setErrors(found);
    if (Object.keys(found).length === 0) add.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }

  const verb = TYPE_LABELS[type]!.toLowerCase();
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Cash movement">
      <ErrorAlert error={add.error} title={`Could not record the ${verb}.`} />
      <fieldset className="rating">
        <legend>Type</legend>
        {CASH_TYPES.map((t) => (
          <label key={t}>
            <input type="radio" name="cash-type" value={t} checked={type === t} onChange={() => setType(t)} />
            {TYPE_LABELS[t]}
          </label>
        ))}
      </fieldset>
      <TextField
        label="Amount"
        inputMode="decimal"
        value={amount}
        placeholder="0.00"
        onChange={(e) => setAmount(e.target.value)}
        error={shown.amount}
        hint={`In ${account.currency}, without the sign.`}
        required
      />
      <TextField
        label="Date and time"
        type="datetime-local"
        value={when}
        onChange={(e) => setWhen(e.target.value)}
        error={shown.occurredAt}
        hint={`${zoneLabel(account.timezone)}: the account's time zone. Leave empty for now.`}
      />
      <TextAreaField label="Note" value={note} maxLength={500} rows={2} onChange={(e) => setNote(e.target.value)} error={shown.note} />
      <StatusMessage>{add.isPending ? `Recording the ${verb}…` : done}</StatusMessage>
      <div className="button-row">
        <button type="submit" className="button" disabled={add.isPending}>
          Record {verb}
        </button>
      </div>
    </form>
  );
}

type Entry = {
  id: string;
  type: string;
  amount: string;
  occurredAt: string;
  note: string | null;
  fillId?: string | undefined;
  fill?: { symbol: string; side: string; quantity: string; price: string } | undefined;
  /** When the user's base currency is not the account's (docs/currencies.md). */
  base?: { currency: string; amount: string | null; rate: string | null; rateDate: string | null } | undefined;
};

/** A fill's entry says what the fill was: "Buy 100 AAPL at 191.50", in two pieces kept together where they fit. */
function FillDescription({ fill }: { fill: NonNullable<Entry["fill"]> }) {
  const side = fill.side === "buy" ? "Buy" : "Sell";
  return (
    <>
      <span className="keep-together">{`${side} ${formatNumber(fill.quantity)} ${symbolLabel(fill.symbol)}`}</span>{" "}
      <span className="keep-together">{`at ${formatPrice(fill.price, priceDecimals([fill.price]))}`}</span>
    </>
  );
}

function DeleteEntryButton({ account, entry }: { account: Account; entry: Entry }) {
  const invalidate = useInvalidateLedger(account.id);
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => unwrap(api.api.ledger[":accountId"].entries[":entryId"].$delete({ param: { accountId: account.id, entryId: entry.id } })),
    onSuccess: invalidate,
  });
  const what = `${TYPE_LABELS[entry.type]?.toLowerCase() ?? "entry"} of ${formatMoney(entry.amount, account.currency)}`;
  if (!confirming)
    return (
      <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(true)} aria-label={`Delete ${what}`}>
        Delete
      </button>
    );
  return (
    <div role="group" aria-label={`Confirm deleting ${what}`} className="button-row">
      <span>Delete this {what}?</span>
      <button type="button" className="button button--danger button--small" onClick={() => remove.mutate()} disabled={remove.isPending}>
        {remove.isPending ? "Deleting…" : "Delete entry"}
      </button>
      <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(false)} autoFocus>
        Cancel
      </button>
      <ErrorAlert error={remove.error} />
    </div>
  );
}

/** The cash ledger, newest first, with the balance after each row rebuilt exactly down the page. */
export function LedgerTable({ account, page, onPage }: { account: Account; page: number; onPage(page: number): void }) {
  const ledger = useQuery({
    queryKey: keys.ledger(account.id, page),
    queryFn: () =>
      unwrap(
        api.api.ledger[":accountId"].$get({
          param: { accountId: account.id },
          query: { page: String(page), pageSize: String(LEDGER_PAGE_SIZE) },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  if (ledger.isPending) return <Loading label="Loading the ledger…" />;
  if (ledger.isError)
    return (
      <>
        <ErrorAlert error={ledger.error} title="Could not load the ledger." />
        <button type="button" className="button button--secondary" onClick={() => void ledger.refetch()}>
          Try again
        </button>
      </>
    );
  const { entries, hasMore, runningBalanceAtFirstRow } = ledger.data;
  if (entries.length === 0 && page === 1)
    return (
      <EmptyState title="No cash movements yet">
        <p>Record a deposit to start the ledger. Fills you add or import appear here with their cash effect.</p>
      </EmptyState>
    );
  const balances = runningBalances(runningBalanceAtFirstRow, entries.map((e) => e.amount));

  return (
    <>
      <ZoneNote zone={account.timezone} />
      <DataTable
        caption={
          <>
            Cash ledger, newest first{page > 1 ? `, page ${page}` : ""}
            {ledger.isFetching && <span className="muted"> (updating…)</span>}
          </>
        }
        rows={entries}
        rowKey={(entry) => entry.id}
        columns={[
          {
            header: "Date",
            headerClassName: "ledger-date",
            cell: (entry) => (
              <>
                <span className="keep-together">{formatDate(entry.occurredAt, account.timezone)},</span>{" "}
                <span className="keep-together">{formatTime(entry.occurredAt, account.timezone)}</span>
              </>
            ),
          },
          { header: "Type", cell: (entry) => TYPE_LABELS[entry.type] ?? entry.type },
          { header: "Note", headerClassName: "ledger-note", cell: (entry) => (entry.fill ? <FillDescription fill={entry.fill} /> : entry.note) },
          {
            header: "Amount",
            num: true,
            className: (entry) => (signOf(entry.amount) < 0 ? "negative" : "positive"),
            cell: (entry) => (
              <>
                {formatMoney(entry.amount, account.currency)}
                <BaseAmount base={entry.base} currency={account.currency} />
              </>
            ),
          },
          { header: "Balance", num: true, cell: (_entry, i) => formatMoney(balances[i]!, account.currency) },
          { header: "Actions", hideHeader: true, cell: (entry) => MANUAL.has(entry.type) && <DeleteEntryButton account={account} entry={entry} /> },
        ]}
      />
      <nav className="pager" aria-label="Ledger pages">
        <button type="button" className="button button--secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Newer
        </button>
        <span>Page {page}</span>
        <button type="button" className="button button--secondary" disabled={!hasMore} onClick={() => onPage(page + 1)}>
          Older
        </button>
      </nav>
    </>
  );
}
