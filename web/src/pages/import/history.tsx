import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { api, unwrap } from "../../api/client.ts";
import { JournalImpact } from "../../components/journal-impact.tsx";
import { EmptyState, ErrorAlert, QueryView, StatusMessage, ZoneNote } from "../../components/ui.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { DataTable } from "../../components/data-table.tsx";

export const historyKey = (accountId: string) => ["imports", accountId] as const;

function fetchHistory(accountId: string) {
  return unwrap(api.api["csv-import"].history.$get({ query: { accountId } }));
}

type ImportItem = Awaited<ReturnType<typeof fetchHistory>>["imports"][number];

type Summary = { rows: number; valid: number; invalid: number; duplicate: number; toImport: number };

/** The stored summary is JSON the server wrote; read only the counts it is known to hold. */
function summaryOf(item: ImportItem): Summary | null {
  const s = item.summary as Partial<Record<keyof Summary, unknown>> | null;
  if (!s || typeof s !== "object") return null;
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  return { rows: n(s.rows), valid: n(s.valid), invalid: n(s.invalid), duplicate: n(s.duplicate), toImport: n(s.toImport) };
}

/** Every query another screen shows from fills: an import or undo changes all of them. */
export async function invalidateAfterImport(queryClient: ReturnType<typeof useQueryClient>, accountId: string) {
  await Promise.all(
    [["trades"], ["fills"], ["ledger"], ["stats"], ["accounts"], ["journals"], historyKey(accountId)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

function statusText(item: ImportItem, now: number): string {
  switch (item.status) {
    case "staged":
      return Date.parse(item.expiresAt) <= now ? "Preview expired" : "Previewed, not committed";
    case "committing":
      return "Committing";
    case "committed":
      return "Imported";
    case "undone":
      return "Undone";
  }
}

export function ImportHistory({ accountId, presetNames, timeZone }: { accountId: string; presetNames: Record<string, string>; timeZone?: string | undefined }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: historyKey(accountId), queryFn: () => fetchHistory(accountId) });
  const [confirming, setConfirming] = useState<ImportItem | null>(null);
  const [done, setDone] = useState("");
  const undo = useMutation({
    mutationFn: (importId: string) => unwrap(api.api["csv-import"][":importId"].undo.$post({ param: { importId } })),
    onSuccess: async (item) => {
      closeConfirm();
      setDone(`Import of ${item.fileName ?? "the file"} undone: its fills and their ledger entries were removed. Notes on its trades are kept.`);
      await invalidateAfterImport(queryClient, accountId);
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: historyKey(accountId) }),
  });
  const dialogRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // When the confirmation closes, focus goes back to the section instead of being lost with the dialog.
  const closeConfirm = () => {
    setConfirming(null);
    requestAnimationFrame(() => headingRef.current?.focus());
  };
  const titleId = useId();
  const descId = useId();
  useEffect(() => {
    if (confirming) dialogRef.current?.focus();
  }, [confirming]);
  const now = Date.now();

  return (
    <section className="panel" aria-labelledby="import-history-heading">
      <h2 id="import-history-heading" tabIndex={-1} ref={headingRef}>
        Import history
      </h2>
      <StatusMessage>{done}</StatusMessage>
      <ErrorAlert error={undo.error} title="Could not undo the import." />
      <ZoneNote zone={timeZone} />
      <QueryView query={query} label="import history">
        {(data) => (
          <DataTable
            caption="Imports into this account, newest first"
            hideCaption
            className="history-table"
            rows={data.imports}
            rowKey={(item) => item.importId}
            empty={
              <EmptyState title="No imports yet">
                <p>Files you import into this account are listed here, and each can be undone.</p>
              </EmptyState>
            }
            columns={[
              { header: "File", rowHeader: true, className: "history-table__file", cell: (item) => item.fileName ?? "(no file name)" },
              { header: "Format", className: "history-table__format", cell: (item) => (item.presetId ? (presetNames[item.presetId] ?? item.presetId) : "Manual mapping") },
              { header: "Rows", num: true, cell: (item) => summaryOf(item)?.rows ?? "—" },
              { header: "Fills added", num: true, cell: (item) => (item.status === "committed" || item.status === "undone" ? item.fillsCreated : "—") },
              { header: "Invalid", num: true, cell: (item) => summaryOf(item)?.invalid ?? "—" },
              { header: "Duplicates", num: true, cell: (item) => summaryOf(item)?.duplicate ?? "—" },
              { header: "Status", cell: (item) => statusText(item, now) },
              {
                header: "When",
                className: "history-table__when",
                cell: (item) => <time dateTime={item.committedAt ?? item.createdAt}>{formatDateTime(item.undoneAt ?? item.committedAt ?? item.createdAt, timeZone)}</time>,
              },
              {
                header: "Actions",
                hideHeader: true,
                cell: (item) =>
                  item.status === "committed" && (
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      aria-label={`Undo import of ${item.fileName ?? "(no file name)"}`}
                      onClick={() => {
                        undo.reset();
                        setDone("");
                        setConfirming(item);
                      }}
                    >
                      Undo
                    </button>
                  ),
              },
            ]}
          />
        )}
      </QueryView>
      {confirming && (
        <div className="confirm" role="alertdialog" aria-labelledby={titleId} aria-describedby={descId} tabIndex={-1}
          ref={dialogRef}
          onKeyDown={(e) => {
            if (e.key === "Escape" && !undo.isPending) closeConfirm();
          }}
        >
          <h3 id={titleId}>Undo the import of {confirming.fileName ?? "this file"}?</h3>
          <p id={descId}>
            This removes the {confirming.fillsCreated} {confirming.fillsCreated === 1 ? "fill" : "fills"} it created and their ledger
            entries, and rebuilds the affected trades.
          </p>
          <JournalImpact subject={{ importId: confirming.importId }} fate="kept" />
          <div className="button-row">
            <button type="button" className="button button--danger" disabled={undo.isPending} onClick={() => undo.mutate(confirming.importId)}>
              {undo.isPending ? "Undoing…" : "Yes, undo import"}
            </button>
            <button type="button" className="button button--secondary" disabled={undo.isPending} onClick={closeConfirm}>
              Keep it
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
