// Settings, Currency (docs/currencies.md): the base currency every account's figures convert to, the rates the
// figures used (their date and source), the ones missing, and the trader's own rates.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts, useSettings } from "../../api/queries.ts";
import { ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { SettingsTabs } from "../../components/settings-tabs.tsx";
import { serverFieldErrors } from "../../lib/form-errors.ts";

/** The currencies of the ECB's daily reference rates (what the rate service publishes). */
export const REFERENCE_CURRENCIES = [
  "EUR", "USD", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "RON", "ISK", "TRY",
  "HKD", "SGD", "CNY", "KRW", "INR", "IDR", "MYR", "PHP", "THB", "ILS", "MXN", "BRL", "ZAR",
] as const;

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

export function CurrencySettingsPage() {
  const settings = useSettings();
  return (
    <>
      <PageHeader title="Currency" />
      <SettingsTabs />
      <QueryView query={settings} label="your settings">
        {(s) => (
          <>
            <BaseForm base={s.baseCurrency} />
            {s.baseCurrency && <Rates base={s.baseCurrency} />}
          </>
        )}
      </QueryView>
    </>
  );
}

function BaseForm({ base }: { base: string | null }) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState(base ?? "");
  const save = useMutation({
    mutationFn: (baseCurrency: string | null) => unwrap(api.api.settings.$put({ json: { baseCurrency } })),
    onSuccess: (data) => {
      queryClient.setQueryData(keys.settings, data);
      // Every figure in the base changes with it.
      void queryClient.invalidateQueries({ queryKey: ["stats"] });
      void queryClient.invalidateQueries({ queryKey: keys.trades });
      void queryClient.invalidateQueries({ queryKey: ["settings", "fx-rates"] });
    },
  });
  const errors = serverFieldErrors(save.error);
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate(chosen || null);
  }
  return (
    <section className="panel" aria-labelledby="base-heading">
      <h2 id="base-heading">Base currency</h2>
      <p>
        Your accounts keep their own currencies. With a base currency, the dashboard can also show every account together, converted at the
        European Central Bank's reference rate of each day (or your own), and each trade shows its P&L in the base beside its own.
      </p>
      <form className="form form--inline" onSubmit={submit} noValidate>
        <SelectField label="Base currency" value={chosen} onChange={(e) => setChosen(e.target.value)} error={errors.baseCurrency}>
          <option value="">None (no conversion)</option>
          {REFERENCE_CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectField>
        <button type="submit" className="button" disabled={save.isPending || chosen === (base ?? "")}>
          Save
        </button>
      </form>
      {save.isSuccess && <StatusMessage>{save.data.baseCurrency ? `Figures can now be shown in ${save.data.baseCurrency}.` : "Conversion is off."}</StatusMessage>}
      {!errors.baseCurrency && <ErrorAlert error={save.error} title="Could not save the base currency." />}
    </section>
  );
}

function Rates({ base }: { base: string }) {
  const [range, setRange] = useState({ from: daysAgo(89), to: today() });
  const rates = useQuery({
    queryKey: keys.fxRates(range.from, range.to),
    queryFn: () => unwrap(api.api.settings["fx-rates"].$get({ query: range })),
  });
  return (
    <section className="panel" aria-labelledby="rates-heading">
      <h2 id="rates-heading">Rates used</h2>
      <p className="field__hint">
        One rate per currency and trading day with something realised or paid, in units of the currency per 1 {base}. A weekend or holiday uses the
        latest earlier rate, up to 7 days back; a rate the instance does not have is listed as missing and its amounts are left out.
      </p>
      <div className="form form--inline">
        <TextField label="From" type="date" value={range.from} max={range.to} onChange={(e) => e.target.value && setRange((r) => ({ ...r, from: e.target.value }))} />
        <TextField label="To" type="date" value={range.to} min={range.from} onChange={(e) => e.target.value && setRange((r) => ({ ...r, to: e.target.value }))} />
      </div>
      <QueryView query={rates} label="the rates">
        {(data) => (
          <>
            {data.missingRates.length > 0 && (
              <p className="notice" role="status">
                Missing: {data.missingRates.map((m) => `${m.currency} on ${m.date}`).join(", ")}. Set your own rate below to count those days.
              </p>
            )}
            {data.rates.length === 0 && data.missingRates.length === 0 ? (
              <p className="muted">No amounts in another currency than {base} in this period.</p>
            ) : (
              <div className="table-wrap">
                <table className="stack-table">
                  <caption className="visually-hidden">Rates used, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Date</th>
                      <th scope="col">Currency</th>
                      <th scope="col">Rate</th>
                      <th scope="col">Rate of</th>
                      <th scope="col">Source</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.rates.map((r) => (
                      <tr key={`${r.date} ${r.currency}`}>
                        <td>{r.date}</td>
                        <td data-label="Currency">{r.currency}</td>
                        <td data-label="Rate">{r.rate}</td>
                        <td data-label="Rate of">{r.rateDate}</td>
                        <td data-label="Source">{r.source === "override" ? "Your rate" : r.source === "broker" ? "Your broker's rate" : `ECB reference (${new URL(data.service).host})`}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Overrides base={base} overrides={data.overrides} />
          </>
        )}
      </QueryView>
    </section>
  );
}

function Overrides({ base, overrides }: { base: string; overrides: ReadonlyArray<{ date: string; currency: string; rate: string }> }) {
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const currencies = [...new Set((accounts.data?.accounts ?? []).map((a) => a.currency))].filter((c) => c !== base).sort();
  const [form, setForm] = useState({ date: today(), currency: "", rate: "" });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["settings", "fx-rates"] });
    void queryClient.invalidateQueries({ queryKey: ["stats"] });
    void queryClient.invalidateQueries({ queryKey: keys.trades });
  };
  const put = useMutation({
    mutationFn: (body: { date: string; currency: string; rate: string }) => unwrap(api.api.settings["fx-overrides"].$put({ json: body })),
    onSuccess: () => {
      setForm((f) => ({ ...f, rate: "" }));
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (key: { date: string; currency: string }) => unwrap(api.api.settings["fx-overrides"].$delete({ query: key })),
    onSuccess: refresh,
  });
  const errors = serverFieldErrors(put.error);
  const currency = form.currency || currencies[0] || "";
  function submit(e: FormEvent) {
    e.preventDefault();
    put.mutate({ ...form, currency });
  }
  return (
    <>
      <h3>Your own rates</h3>
      <p className="field__hint">A rate you set for a date wins over the reference rate of that date (your broker's, say, or a currency the ECB does not publish).</p>
      {currencies.length === 0 ? (
        <p className="muted">All your accounts are in {base}.</p>
      ) : (
        <form className="form form--inline" onSubmit={submit} noValidate>
          <TextField label="Date" type="date" value={form.date} max={today()} onChange={(e) => setForm((f) => ({ ...f, date: e.target.value }))} error={errors.date} />
          <SelectField label="Currency" value={currency} onChange={(e) => setForm((f) => ({ ...f, currency: e.target.value }))} error={errors.currency}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </SelectField>
          <TextField label={`Rate (${currency || "units"} per 1 ${base})`} inputMode="decimal" value={form.rate} onChange={(e) => setForm((f) => ({ ...f, rate: e.target.value.trim() }))} error={errors.rate} />
          <button type="submit" className="button" disabled={put.isPending}>
            Set rate
          </button>
        </form>
      )}
      {Object.keys(errors).length === 0 && <ErrorAlert error={put.error} title="Could not set the rate." />}
      <ErrorAlert error={remove.error} title="Could not remove the rate." />
      {overrides.length > 0 && (
        <ul className="plain-list">
          {overrides.map((o) => (
            <li key={`${o.date} ${o.currency}`}>
              {o.date}: {o.rate} {o.currency} per 1 {base}{" "}
              <button type="button" className="button button--secondary button--small" disabled={remove.isPending} onClick={() => remove.mutate({ date: o.date, currency: o.currency })}>
                Remove<span className="visually-hidden"> the rate of {o.currency} on {o.date}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
