// Reports (docs/digest.md, "The printable report"): a period and an account (or every account of a currency) and
// the paper; the report opens as a page styled for paper, which the browser prints or saves as PDF, or comes as a
// PDF file where the server can print it (the Node entrypoint with Chromium).
import { useState } from "react";
import { useAccounts, useSettings } from "../../api/queries.ts";
import { guessTimeZone } from "../../lib/time-zones.ts";
import { PageHeader, QueryView, SelectField, TextField } from "../../components/ui.tsx";
import { DisciplineTabs } from "../../components/discipline-tabs.tsx";
import { startOfDay } from "../accounts/account-form.tsx";

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export function ReportPage() {
  const accounts = useAccounts();
  const settings = useSettings();
  const base = settings.data?.baseCurrency ?? null;
  const [from, setFrom] = useState(daysAgo(30));
  const [to, setTo] = useState(daysAgo(1));
  const [accountId, setAccountId] = useState("");
  const [paper, setPaper] = useState<"a4" | "letter">("a4");
  return (
    <>
      <PageHeader title="Printable report" />
      <DisciplineTabs />
      <QueryView query={accounts} label="your accounts">
        {({ accounts: list }) => {
          // The scope: one account (on its clock), every account of a currency, or all of them in the base currency
          // (on this browser's clock), as the statistics take them.
          const currencies = [...new Set(list.map((a) => a.currency))].sort();
          const chosen = accountId || list[0]?.id || "";
          const account = list.find((a) => a.id === chosen);
          if (list.length === 0) return <p>Add an account first: the report is of an account's trades.</p>;
          const zone = account?.timezone ?? guessTimeZone();
          const scope: Record<string, string> = account ? { accountId: account.id } : { currency: chosen.slice("currency:".length) };
          const params = new URLSearchParams({ ...scope, from: startOfDay(from, zone), to: startOfDay(nextDay(to), zone), paper });
          const valid = from !== "" && to !== "" && from <= to;
          return (
            <section className="panel" aria-labelledby="report-heading">
              <h2 id="report-heading">A period on paper</h2>
              <p>
                The summary, the equity curve, the calendar, breakdowns, the R distribution, your rules, the behaviour findings and the days you
                journaled, each section on its own page: for a coach, an accountant or your own files.
              </p>
              <div className="form form--inline">
                <SelectField label="Accounts" value={chosen} onChange={(e) => setAccountId(e.target.value)}>
                  {list.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name}
                    </option>
                  ))}
                  {currencies.map((c) => (
                    <option key={c} value={`currency:${c}`}>
                      {`Every ${c} account`}
                    </option>
                  ))}
                  {base && currencies.length > 1 && <option value="currency:base">{`Every account, in ${base}`}</option>}
                </SelectField>
                <TextField label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
                <TextField label="To" type="date" value={to} onChange={(e) => setTo(e.target.value)} hint="The whole day included; at most 400 days." />
                <SelectField label="Paper" value={paper} onChange={(e) => setPaper(e.target.value as "a4" | "letter")}>
                  <option value="a4">A4</option>
                  <option value="letter">Letter</option>
                </SelectField>
              </div>
              {valid ? (
                <p className="actions">
                  <a className="button" href={`/api/reports/report.html?${params}`} target="_blank" rel="noopener">
                    Open the report to print
                  </a>{" "}
                  <a className="button button--secondary" href={`/api/reports/report.pdf?${params}`}>
                    Download as PDF
                  </a>
                </p>
              ) : (
                <p role="alert">The period ends before it starts.</p>
              )}
              <p className="hint">
                Download as PDF needs a server that can print (the Node entrypoint with Chromium installed); everywhere else, open the report and
                save it as PDF with your browser's Print.
              </p>
            </section>
          );
        }}
      </QueryView>
    </>
  );
}
