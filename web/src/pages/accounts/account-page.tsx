import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { JournalImpact } from "../../components/journal-impact.tsx";
import { draftOf, FeeScheduleFields, scheduleOf } from "./fee-schedule.tsx";
import { ApiError } from "../../api/errors.ts";
import { keys, useAccount, useBrokerages, type Account } from "../../api/queries.ts";
import { BrokerageSelect } from "../../components/brokerage-select.tsx";
import { TimeZonePicker } from "../../components/time-zone-picker.tsx";
import { ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { formatDate, formatMoney } from "../../lib/format.ts";
import { serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { ACCOUNT_FIELD_OF_CODE } from "./account-form.tsx";
import { BrokerSync } from "./broker-sync.tsx";
import { CashEntryForm, LedgerTable } from "./ledger.tsx";
import { PropPanel } from "./prop-panel.tsx";

function EditAccountForm({ account, onDone }: { account: Account; onDone(): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(account.name);
  const [timezone, setTimezone] = useState(account.timezone);
  const [brokerageId, setBrokerageId] = useState(account.brokerageId ?? "");
  const [defaultRisk, setDefaultRisk] = useState(account.defaultRisk ?? "");
  const [taxStatus, setTaxStatus] = useState(account.taxStatus);
  const [fees, setFees] = useState(() => draftOf(account.feeSchedule));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (json: { name: string; timezone: string; brokerageId: string | null; defaultRisk: string | null; feeSchedule: ReturnType<typeof scheduleOf>; taxStatus: Account["taxStatus"] }) =>
      unwrap(api.api.accounts[":id"].$patch({ param: { id: account.id }, json })),
    onSuccess: async (updated) => {
      queryClient.setQueryData(keys.account(account.id), updated);
      await queryClient.invalidateQueries({ queryKey: keys.accounts });
      onDone();
    },
  });
  const shown = { ...serverFieldErrors(save.error, ACCOUNT_FIELD_OF_CODE), ...errors };

  function submit(e: FormEvent) {
    e.preventDefault();
    const found: FieldErrors = {};
    if (!name.trim()) found.name = "must not be empty";
    setErrors(found);
    if (Object.keys(found).length === 0) {
      save.mutate({ name: name.trim(), timezone, brokerageId: brokerageId || null, defaultRisk: defaultRisk.trim() || null, feeSchedule: scheduleOf(fees), taxStatus });
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Edit account">
      <ErrorAlert error={save.error} title="Could not save the account." />
      <div className="grid-2">
        <TextField label="Account name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={shown.name} required />
        <BrokerageSelect value={brokerageId} onChange={setBrokerageId} error={shown.brokerageId} />
      </div>
      <TimeZonePicker value={timezone} onChange={setTimezone} error={shown.timezone} />
      <TextField
        label="Default risk per trade"
        inputMode="decimal"
        value={defaultRisk}
        placeholder="None"
        onChange={(e) => setDefaultRisk(e.target.value)}
        error={shown.defaultRisk}
        hint={`In ${account.currency}: 1R of the trades without a stop or planned risk of their own, so they count in R too. Leave empty for none.`}
      />
      <FeeScheduleFields draft={fees} onChange={setFees} currency={account.currency} error={shown.feeSchedule} />
      <SelectField
        label="Tax status"
        value={taxStatus}
        onChange={(e) => setTaxStatus(e.target.value as Account["taxStatus"])}
        error={shown.taxStatus}
        hint="For the tax year's lots: a taxable account's sales count; an IRA's purchases disallow a loss for good (a wash sale); an exempt account counts for nothing."
      >
        <option value="taxable">Taxable</option>
        <option value="ira">IRA (tax-advantaged)</option>
        <option value="exempt">Exempt</option>
      </SelectField>
      <p className="field__hint">
        Currency and starting balance cannot be changed; record an adjustment in the ledger to correct a balance.
      </p>
      <StatusMessage>{save.isPending ? "Saving…" : ""}</StatusMessage>
      <div className="button-row">
        <button type="submit" className="button" disabled={save.isPending}>
          Save changes
        </button>
        <button type="button" className="button button--secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Delete in two steps, as the API asks: a first confirmation deletes an account with nothing but its
 * opening balance; one with history answers 409, and only a second, explicit confirmation sends
 * `?confirm=delete-history`.
 */
function DeleteAccount({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [step, setStep] = useState<"idle" | "confirm" | "history">("idle");
  const remove = useMutation({
    mutationFn: (withHistory: boolean) =>
      unwrap(api.api.accounts[":id"].$delete({ param: { id: account.id }, query: withHistory ? { confirm: "delete-history" } : {} })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: keys.account(account.id) });
      queryClient.removeQueries({ queryKey: keys.ledgerOf(account.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.accounts }),
        queryClient.invalidateQueries({ queryKey: keys.trades }),
      ]);
      void navigate("/accounts", { replace: true });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === "CONFLICT") setStep("history");
    },
  });
  const conflict = remove.error instanceof ApiError && remove.error.code === "CONFLICT";

  if (step === "idle")
    return (
      <button type="button" className="button button--danger" onClick={() => setStep("confirm")}>
        Delete account
      </button>
    );
  return (
    <div className="panel" role="group" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete “{account.name}”?</h2>
      {step === "history" ? (
        <div role="alert">
          <p>
            <strong>This account has history:</strong> deposits, withdrawals, adjustments or fills. Deleting it also deletes all of
            them and its trades. This cannot be undone.
          </p>
        </div>
      ) : (
        <p>This cannot be undone.</p>
      )}
      <JournalImpact subject={{ accountId: account.id }} fate="deleted" />
      {!conflict && <ErrorAlert error={remove.error} title="Could not delete the account." />}
      <div className="button-row">
        <button type="button" className="button button--danger" disabled={remove.isPending} onClick={() => remove.mutate(step === "history")}>
          {remove.isPending ? "Deleting…" : step === "history" ? "Delete account and all its history" : "Yes, delete account"}
        </button>
        <button type="button" className="button button--secondary" onClick={() => setStep("idle")}>
          Cancel
        </button>
      </div>
    </div>
  );
}

export function AccountPage() {
  const { accountId = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const account = useAccount(accountId);
  const brokerages = useBrokerages();
  const [editing, setEditing] = useState(false);

  return (
    <QueryView query={account} label="the account">
      {(a) => {
        const brokerage = brokerages.data?.brokerages.find((b) => b.id === a.brokerageId);
        return (
          <>
            <p className="breadcrumb">
              <Link to="/accounts">Accounts</Link> / {a.name}
            </p>
            <PageHeader title={a.name}>
              <Link className="button button--secondary" to={`/trades?accountId=${a.id}`}>
                Trades
              </Link>
              <Link className="button button--secondary" to={`/accounts/${a.id}/fills`}>
                Fills
              </Link>
              <Link className="button button--secondary" to={`/fills/new?accountId=${a.id}`}>
                Add a fill
              </Link>
              {!editing && (
                <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
                  Edit account
                </button>
              )}
            </PageHeader>
            <dl className="stats">
              <div>
                <dt>Cash balance</dt>
                <dd>{formatMoney(a.balance, a.currency)}</dd>
              </div>
              <div>
                <dt>Starting balance</dt>
                <dd>
                  {formatMoney(a.startingBalance, a.currency)}
                  {a.startingBalanceAt && <span className="muted"> as of {formatDate(a.startingBalanceAt, a.timezone)}</span>}
                </dd>
              </div>
              <div>
                <dt>Default risk</dt>
                <dd>{a.defaultRisk ? formatMoney(a.defaultRisk, a.currency) : "None"}</dd>
              </div>
              <div>
                <dt>Time zone</dt>
                <dd>{a.timezone}</dd>
              </div>
              <div>
                <dt>Brokerage</dt>
                <dd>{brokerage?.name ?? "None"}</dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{formatDate(a.createdAt, a.timezone)}</dd>
              </div>
            </dl>
            {editing && (
              <section className="panel" aria-labelledby="edit-account-title">
                <h2 id="edit-account-title">Edit account</h2>
                <EditAccountForm account={a} onDone={() => setEditing(false)} />
              </section>
            )}
            <div className="ledger-layout">
              <section aria-labelledby="ledger-title">
                <h2 id="ledger-title">Cash ledger</h2>
                <LedgerTable account={a} page={page} onPage={(p) => setParams(p > 1 ? { page: String(p) } : {})} />
              </section>
              <section className="panel" aria-labelledby="cash-title">
                <h2 id="cash-title">Deposit or withdraw</h2>
                <CashEntryForm account={a} />
              </section>
            </div>
            <section className="panel" aria-labelledby="prop-title">
              <h2 id="prop-title">Path to funding</h2>
              <PropPanel account={a} />
            </section>
            <section className="panel" aria-labelledby="sync-title">
              <h2 id="sync-title">Broker sync</h2>
              <BrokerSync account={a} />
            </section>
            <section className="panel" aria-labelledby="export-title">
              <h2 id="export-title">Export</h2>
              <p>
                Your data as CSV files. The fills file is in the generic import format: it imports again, here or on another instance.
              </p>
              <ul className="export-links">
                <li>
                  <a href={`/api/accounts/${a.id}/export/fills`} download>
                    Fills (CSV)
                  </a>
                </li>
                <li>
                  <a href={`/api/accounts/${a.id}/export/trades`} download>
                    Trades with notes, tags, setup and rating (CSV)
                  </a>
                </li>
                <li>
                  <a href={`/api/accounts/${a.id}/export/ledger`} download>
                    Cash ledger (CSV)
                  </a>
                </li>
              </ul>
            </section>
            <section aria-labelledby="danger-title" className="danger-zone">
              <h2 id="danger-title">Delete this account</h2>
              <DeleteAccount account={a} />
            </section>
          </>
        );
      }}
    </QueryView>
  );
}
