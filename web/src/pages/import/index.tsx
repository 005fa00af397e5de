// The CSV import page (docs/imports.md; the screens in docs/web.md, "CSV import wizard"): the account to import
// into, the wizard (its state in wizard.ts, its three steps in steps.tsx) and the account's import history.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { EmptyState, PageHeader, QueryView, SelectField, StatusMessage } from "../../components/ui.tsx";
import { useAccountParam } from "./accounts.ts";
import { useAccounts, type Account } from "../../api/queries.ts";
import type { PresetLike } from "./detect.ts";
import { ImportHistory } from "./history.tsx";
import { FileStep, FormatStep, PreviewStep } from "./steps.tsx";
import { useImportWizard, type Upload } from "./wizard.ts";
import "./import.css";

function usePresets() {
  return useQuery({
    queryKey: ["csv-import", "presets"],
    queryFn: () => unwrap(api.api["csv-import"].presets.$get()),
    staleTime: Infinity,
  });
}

export function ImportPage() {
  const accounts = useAccounts();
  const presets = usePresets();
  const { accountId, account, setAccountId } = useAccountParam(accounts.data?.accounts);
  const presetNames = useMemo(() => Object.fromEntries((presets.data?.presets ?? []).map((p) => [p.id, p.name])), [presets.data]);

  return (
    <>
      <PageHeader title="Import trades" />
      <QueryView query={accounts} label="accounts">
        {({ accounts: list }) =>
          list.length === 0 ? (
            <EmptyState title="Create an account first" action={<Link to="/accounts" className="button">Go to accounts</Link>}>
              <p>Imported fills go into one of your trading accounts.</p>
            </EmptyState>
          ) : (
            <>
              <div className="panel import-account">
                <SelectField label="Account" value={accountId} onChange={(e) => setAccountId(e.target.value)} hint="The fills are added to this account and its cash ledger.">
                  {list.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name} ({a.currency})
                    </option>
                  ))}
                </SelectField>
              </div>
              <QueryView query={presets} label="import formats">
                {(data) => account && <ImportWizard key={account.id} account={account} presets={data.presets} />}
              </QueryView>
              {account && <ImportHistory accountId={account.id} presetNames={presetNames} timeZone={account.timezone} />}
            </>
          )
        }
      </QueryView>
    </>
  );
}

function progressText(upload: Upload, fileName: string): string {
  if (upload.phase === "uploading") {
    const pct = upload.total > 0 ? Math.floor((upload.loaded / upload.total) * 10) * 10 : 0;
    return `Uploading ${fileName}: ${pct}%`;
  }
  if (upload.phase === "checking") return "Upload complete. Checking the rows…";
  return "";
}

/** A failed preview: the message, and the request fields the server named (mapping columns, options). */

function ImportWizard({ account, presets }: { account: Account; presets: readonly PresetLike[] }) {
  const w = useImportWizard(account, presets);
  const { sniff, upload, announce, doneRef, commit, busy } = w;
  return (
    <>
      <StatusMessage>{busy ? progressText(upload, sniff?.file.name ?? "the file") : commit.isPending ? "Importing…" : announce}</StatusMessage>

      {commit.isSuccess && (
        <section className="panel import-done" tabIndex={-1} ref={doneRef} aria-labelledby="import-done-heading">
          <h2 id="import-done-heading">Import complete</h2>
          <p>
            {commit.data.fillsCreated} {commit.data.fillsCreated === 1 ? "fill was" : "fills were"} added to {account.name}. Trades, the
            ledger and your statistics are updated.
          </p>
          <div className="button-row">
            <Link to="/trades" className="button">
              View trades
            </Link>
            <Link to={`/dashboard?account=${account.id}`} className="button button--secondary">
              View dashboard
            </Link>
          </div>
        </section>
      )}
      <FileStep w={w} />
      {w.sniff && <FormatStep w={w} />}
      {w.preview && w.sniff && <PreviewStep w={w} />}
    </>
  );
}
