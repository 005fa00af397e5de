// The tax year (docs/tax.md): Schedule D's and Form 6781's totals, every lot with its wash sale, the losses a
// purchase would still wash, and the files for the trader's tax software (Form 8949 CSV, TXF). Printable.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../../api/client.ts";
import { type Account, useSettings } from "../../api/queries.ts";
import { TradesTabs } from "../../components/trades-tabs.tsx";
import { MissingRates } from "../../components/missing-rates.tsx";
import { ErrorAlert, PageHeader, QueryView, SelectField } from "../../components/ui.tsx";
import { WithAccounts } from "../../components/with-accounts.tsx";
import { formatMoney, formatPnl, symbolLabel, toneOf } from "../../lib/format.ts";
import "./tax.css";

const STATUS: Record<Account["taxStatus"], string> = { taxable: "taxable", ira: "IRA", exempt: "exempt" };

function TaxYear({ accounts }: { accounts: readonly Account[] }) {
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(String(thisYear));
  const currencies = [...new Set(accounts.filter((a) => a.taxStatus !== "exempt").map((a) => a.currency))].sort();
  // With a base currency set (Settings, Currency), every account's lots computed in it is one more choice.
  const base = useSettings().data?.baseCurrency ?? null;
  const choices = [...currencies, ...(base ? ["base"] : [])];
  const [currency, setCurrency] = useState(currencies[0] ?? "USD");
  const shown = currency === "base" ? (base ?? "USD") : currency;
  const chosen: { currency?: string } = choices.length > 1 ? { currency } : {};
  const query = { year, method: "fifo", ...chosen };
  const lots = useQuery({ queryKey: ["tax", "lots", query], queryFn: () => unwrap(api.api.tax.lots.$get({ query })) });
  const scheduleD = useQuery({ queryKey: ["tax", "schedule-d", query], queryFn: () => unwrap(api.api.tax["schedule-d"].$get({ query })) });
  const watch = useQuery({ queryKey: ["tax", "wash-watch", currency], queryFn: () => unwrap(api.api.tax["wash-watch"].$get({ query: chosen })) });
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  const money = (v: string) => formatMoney(v, shown);
  const search = new URLSearchParams(query).toString();
  return (
    <>
      <div className="form form--inline tax-controls">
        <SelectField label="Tax year" value={year} onChange={(e) => setYear(e.target.value)}>
          {Array.from({ length: 6 }, (_, i) => String(thisYear - i)).map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </SelectField>
        {choices.length > 1 && (
          <SelectField label="Currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {choices.map((c) => (
              <option key={c} value={c}>
                {c === "base" ? `Every account in ${base} (base)` : c}
              </option>
            ))}
          </SelectField>
        )}
        <a className="button button--secondary" href={`/api/tax/8949.csv?${search}`} download>
          Form 8949 (CSV)
        </a>
        <a className="button button--secondary" href={`/api/tax/txf?${search}`} download>
          TXF for tax software
        </a>
        <button type="button" className="button button--secondary" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <p className="muted">
        Figures from your fills, not advice. Accounts: {accounts.map((a) => `${a.name} (${STATUS[a.taxStatus]})`).join(", ")}; change an account's status on its page (Tax status). US rules: FIFO lots, wash sales across every account, Section 1256 contracts 60/40.
      </p>

      <section className="panel" aria-labelledby="wash-watch-title">
        <h2 id="wash-watch-title">Wash watch</h2>
        <QueryView query={watch} label="the wash watch">
          {({ losses }) =>
            losses.length === 0 ? (
              <p className="muted">No loss of the last 30 days is open to a wash sale.</p>
            ) : (
              <ul className="plain-list" aria-label="Losses a purchase would still wash">
                {losses.map((l) => (
                  <li key={`${l.accountId}-${l.symbol}-${l.soldAt}`}>
                    <strong>{symbolLabel(l.symbol)}</strong> sold {l.soldAt} at a loss of {money(l.loss)}: buying it on or before <strong>{l.washableUntil}</strong> would wash it.
                  </li>
                ))}
              </ul>
            )
          }
        </QueryView>
      </section>

      <section className="panel" aria-labelledby="schedule-d-title">
        <h2 id="schedule-d-title">Schedule D, {year}</h2>
        <QueryView query={scheduleD} label="Schedule D">
          {(d) => (
            <dl className="stats">
              <div>
                <dt>Short-term, Form 8949 box C (line 3)</dt>
                <dd className={toneOf(d.line3.gain)}>{formatPnl(d.line3.gain, shown)}</dd>
              </div>
              <div>
                <dt>Short-term from Form 6781 (line 4)</dt>
                <dd className={toneOf(d.line4)}>{formatPnl(d.line4, shown)}</dd>
              </div>
              <div>
                <dt>Long-term, Form 8949 box F (line 10)</dt>
                <dd className={toneOf(d.line10.gain)}>{formatPnl(d.line10.gain, shown)}</dd>
              </div>
              <div>
                <dt>Long-term from Form 6781 (line 11)</dt>
                <dd className={toneOf(d.line11)}>{formatPnl(d.line11, shown)}</dd>
              </div>
              <div>
                <dt>Net (line 16)</dt>
                <dd className={toneOf(d.line16)}>{formatPnl(d.line16, shown)}</dd>
              </div>
              <div>
                <dt>Disallowed by wash sales</dt>
                <dd>{money((Number(d.line3.adjustment) + Number(d.line10.adjustment)).toFixed(2))}</dd>
              </div>
            </dl>
          )}
        </QueryView>
      </section>

      <section className="panel" aria-labelledby="lots-title">
        <h2 id="lots-title">Lots sold in {year}</h2>
        <QueryView query={lots} label="the lots">
          {(l) => (
            <>
              {l.missingRates.length > 0 && (
                <>
                  <MissingRates missing={l.missingRates} />
                  <p className="muted">The sales that need those rates are not in these figures, and the files for tax software are not written until they are set.</p>
                </>
              )}
              {l.lots.length === 0 ? (
                <p className="muted">Nothing sold in {year}.</p>
              ) : (
                <div className="table-wrap">
                  <table className="tax-lots">
                    <caption className="visually-hidden">Each lot sold in the year: dates, proceeds, basis, wash-sale adjustment and gain</caption>
                    <thead>
                      <tr>
                        <th scope="col">Symbol</th>
                        <th scope="col">Quantity</th>
                        <th scope="col">Acquired</th>
                        <th scope="col">Sold</th>
                        <th scope="col">Proceeds</th>
                        <th scope="col">Basis</th>
                        <th scope="col">Adjustment</th>
                        <th scope="col">Gain</th>
                        <th scope="col">Term</th>
                      </tr>
                    </thead>
                    <tbody>
                      {l.lots.map((x, i) => (
                        <tr key={i}>
                          <th scope="row">
                            {symbolLabel(x.symbol)} <span className="muted">{names.get(x.accountId)}</span>
                          </th>
                          <td data-label="Quantity">{x.quantity}</td>
                          <td data-label="Acquired">{x.acquiredAt}</td>
                          <td data-label="Sold">{x.markedToMarket ? `${x.soldAt} (marked)` : x.soldAt}</td>
                          <td data-label="Proceeds">{money(x.proceeds)}</td>
                          <td data-label="Basis">{money(x.costBasis)}</td>
                          <td data-label="Adjustment">{x.washSale ? `W ${money(x.adjustment)}${x.washSale.permanent ? " (IRA: for good)" : ""}` : ""}</td>
                          <td data-label="Gain" className={toneOf(x.gain)}>
                            {formatPnl(x.gain, shown)}
                          </td>
                          <td data-label="Term">{x.section1256 ? "60/40" : x.term}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {l.possibleWashSales.length > 0 && (
                <>
                  <h3>Possible wash sales through options</h3>
                  <ul className="plain-list" aria-label="Possible wash sales through options">
                    {l.possibleWashSales.map((p, i) => (
                      <li key={i}>
                        {symbolLabel(p.symbol)} sold {p.lossSoldAt} at a loss of {money(p.loss)}; {symbolLabel(p.replacementSymbol)} bought {p.replacementAt}.{" "}
                        <WashDecision possible={p} currency={currency} />
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {l.basisUnknown.length > 0 && (
                <>
                  <h3>Sales with no purchase in the journal</h3>
                  <p className="muted">
                    Their basis is unknown, so they are not in the forms: if you bought the shares before your first fill here, add the purchase; a
                    short sale not yet covered is taxed when it is.
                  </p>
                  <ul className="plain-list" aria-label="Sales with no purchase in the journal">
                    {l.basisUnknown.map((u, i) => (
                      <li key={i}>
                        {symbolLabel(u.symbol)}: {u.quantity} sold {u.soldAt} for {money(u.proceeds)}.
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {l.deferredLosses.length > 0 && (
                <>
                  <h3>Losses carried into next year</h3>
                  <ul className="plain-list" aria-label="Losses carried into next year">
                    {l.deferredLosses.map((d, i) => (
                      <li key={i}>
                        {symbolLabel(d.symbol)}: {money(d.disallowed)} disallowed on {d.lossSoldAt}, in the lot bought {d.replacementLotOpenedAt}.
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
        </QueryView>
      </section>
    </>
  );
}

type Possible = { symbol: string; lossSoldAt: string; replacementSymbol: string; replacementAt: string; decision: "wash" | "not_wash" | null };
const DECIDED = { wash: "Decided: a wash sale (the loss is in the option's basis).", not_wash: "Decided: not a wash sale." } as const;

/** The trader's decision on a possible wash sale through an option (docs/tax.md): kept, and applied to the lots and forms. */
function WashDecision({ possible, currency }: { possible: Possible; currency: string | undefined }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: Possible["decision"]) =>
      unwrap(
        api.api.tax["possible-wash-sales"].$put({
          json: { symbol: possible.symbol, lossSoldAt: possible.lossSoldAt, replacementSymbol: possible.replacementSymbol, replacementAt: possible.replacementAt, decision, ...(currency ? { currency } : {}) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["tax"] }),
  });
  return (
    <>
      {possible.decision ? DECIDED[possible.decision] : "Yours to decide: not adjusted."}{" "}
      {possible.decision !== "wash" && (
        <button type="button" className="button button--small" disabled={decide.isPending} onClick={() => decide.mutate("wash")}>
          It is a wash sale
        </button>
      )}{" "}
      {possible.decision !== "not_wash" && (
        <button type="button" className="button button--small button--secondary" disabled={decide.isPending} onClick={() => decide.mutate("not_wash")}>
          It is not
        </button>
      )}{" "}
      {possible.decision !== null && (
        <button type="button" className="button button--small button--secondary" disabled={decide.isPending} onClick={() => decide.mutate(null)}>
          Undecided
        </button>
      )}
      <ErrorAlert error={decide.error} title="Could not keep the decision." />
    </>
  );
}

export function TaxPage() {
  return (
    <>
      <PageHeader title="Tax" />
      <TradesTabs />
      <WithAccounts why="Tax lots are read from your fills.">{(list) => <TaxYear accounts={list} />}</WithAccounts>
    </>
  );
}
