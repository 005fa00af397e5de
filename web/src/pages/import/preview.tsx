import { Fees } from "../../components/fees.tsx";
import { ZoneNote } from "../../components/ui.tsx";
import { formatDateTime, formatNumber, formatPnl, formatPrice, formatQuantity, priceDecimals, quantityDecimals, symbolLabel, toneOf } from "../../lib/format.ts";
import type { PreviewResult } from "./upload.ts";
import { DataTable } from "../../components/data-table.tsx";

/** Row errors grouped by spreadsheet row, rows in file order, so each bad row reads as one line of problems. */
export function groupErrors(errors: readonly { row: number; column?: string | undefined; message: string }[]) {
  const byRow = new Map<number, { column?: string | undefined; message: string }[]>();
  for (const e of errors) {
    const list = byRow.get(e.row) ?? [];
    list.push({ column: e.column, message: e.message });
    byRow.set(e.row, list);
  }
  return [...byRow].sort((a, b) => a[0] - b[0]).map(([row, problems]) => ({ row, problems }));
}

type Props = { preview: PreviewResult; currency: string; timeZone?: string | undefined };

/** What the commit would do: counts, the rows it refuses and why, and the fills and positions it would add. */
export function PreviewView({ preview, currency, timeZone }: Props) {
  const { summary, errors, fills, symbols } = preview;
  const grouped = groupErrors(errors);
  const shownErrorRows = grouped.length;
  const skippedRows = preview.rows.flatMap((r) => (r.status === "skipped" ? [{ row: r.row, reason: r.reason }] : []));
  // One number of decimals per column: the prices', the quantities'.
  const pricePlaces = priceDecimals(fills.map((f) => f.price));
  const quantityPlaces = quantityDecimals(fills.map((f) => f.quantity));
  return (
    <div className="import-preview">
      <dl className="stats" aria-label="Preview summary">
        <div>
          <dt>Rows</dt>
          <dd>{summary.rows}</dd>
        </div>
        <div>
          <dt>Valid</dt>
          <dd>{summary.valid}</dd>
        </div>
        <div>
          <dt>Invalid</dt>
          <dd className={summary.invalid > 0 ? "negative" : undefined}>{summary.invalid}</dd>
        </div>
        <div>
          <dt>Duplicates</dt>
          <dd>{summary.duplicate}</dd>
        </div>
        {summary.skipped > 0 && (
          <div>
            <dt>Skipped by the format</dt>
            <dd>{summary.skipped}</dd>
          </div>
        )}
        <div>
          <dt>To import</dt>
          <dd>{summary.toImport}</dd>
        </div>
        <div>
          <dt>Cash effect</dt>
          <dd className={toneOf(summary.cashEffect)}>{formatPnl(summary.cashEffect, currency)}</dd>
        </div>
      </dl>

      {preview.reconciliation && (
        // Another journal's export: its own P&L against what the journal makes of its trades (before fees).
        <p className={preview.reconciliation.matches ? "notice" : "notice notice--warning"} role="status" aria-label="Reconciliation">
          {preview.reconciliation.matches
            ? `Reconciled: the file's P&L, ${formatPnl(preview.reconciliation.file, currency)}, is the journal's to the cent.`
            : `The file's P&L is ${formatPnl(preview.reconciliation.file, currency)}; the journal makes ${formatPnl(preview.reconciliation.journal, currency)} of the same trades. Where they differ: ${preview.reconciliation.differ
                .map((d) => `${d.symbol} ${formatPnl(d.file, currency)} in the file, ${formatPnl(d.journal, currency)} here`)
                .join("; ")}. A trade exited in parts is written with one average exit in some exports: check those trades after importing.`}
        </p>
      )}

      {summary.deletedByHand > 0 && (
        <p className="notice" role="status">
          {summary.deletedByHand === 1 ? "1 fill of this file is one you deleted by hand" : `${summary.deletedByHand} fills of this file are ones you deleted by hand`}
          : importing brings {summary.deletedByHand === 1 ? "it" : "them"} back (marked “Deleted by you” below). Take {summary.deletedByHand === 1 ? "it" : "them"} out
          of the file first, or delete {summary.deletedByHand === 1 ? "it" : "them"} again after.
        </p>
      )}

      {summary.invalid > 0 && (
        <section aria-labelledby="preview-errors-heading">
          <h3 id="preview-errors-heading">Rows with errors</h3>
          <p>
            {summary.invalid === 1 ? "1 row is" : `${summary.invalid} rows are`} not imported. Row numbers are those of a spreadsheet
            (the header is row 1). Fix the file and preview it again, or import the valid rows now.
            {shownErrorRows < summary.invalid && ` The first ${shownErrorRows} are listed.`}
          </p>
          <DataTable
            caption="Rows with errors"
            hideCaption
            stack={false}
            rows={grouped}
            rowKey={(g) => g.row}
            columns={[
              { header: "Row", num: true, rowHeader: true, cell: (g) => g.row },
              {
                header: "Problems",
                cell: (g) => (
                  <ul className="cell-errors">
                    {g.problems.map((p, i) => (
                      <li key={i}>
                        {p.column ? (
                          <>
                            <span className="cell-errors__column">{p.column}</span>: {p.message}
                          </>
                        ) : (
                          p.message
                        )}
                      </li>
                    ))}
                  </ul>
                ),
              },
            ]}
          />
        </section>
      )}

      {skippedRows.length > 0 && (
        <section aria-labelledby="preview-skipped-heading">
          <h3 id="preview-skipped-heading">Rows the format skips</h3>
          <p className="muted">
            {summary.skipped} row{summary.skipped === 1 ? " is" : "s are"} not trades this format imports, so they are left out on purpose
            {skippedRows.length < summary.skipped ? ` (counted below over the first ${skippedRows.length})` : ""}:
          </p>
          <ul aria-label="Rows skipped, by reason">
            {skippedByReason(skippedRows).map(([reason, n]) => (
              <li key={reason}>
                {reason}: <strong>{n}</strong> row{n === 1 ? "" : "s"}
              </li>
            ))}
          </ul>
          <details>
            <summary>Show the skipped rows</summary>
            <DataTable
              caption="Rows left out, with the reason"
              hideCaption
              stack={false}
              rows={skippedRows}
              rowKey={(r) => r.row}
              columns={[
                { header: "Row", num: true, rowHeader: true, cell: (r) => r.row },
                { header: "Why", cell: (r) => r.reason },
              ]}
            />
          </details>
        </section>
      )}

      {symbols.length > 0 && (
        <section aria-labelledby="preview-positions-heading">
          <h3 id="preview-positions-heading">Positions this import adds to</h3>
          <DataTable
            caption="Net quantity per symbol from the new fills"
            hideCaption
            rows={symbols}
            rowKey={(r) => r.symbol}
            columns={[
              { header: "Symbol", rowHeader: true, title: (r) => r.symbol, cell: (r) => symbolLabel(r.symbol) },
              { header: "New fills", num: true, cell: (r) => r.fills },
              { header: "Net quantity", num: true, cell: (r) => formatNumber(r.netQuantity) },
            ]}
          />
        </section>
      )}

      {fills.length > 0 && (
        <section aria-labelledby="preview-fills-heading">
          <h3 id="preview-fills-heading">Fills</h3>
          {fills.length < summary.valid && <p className="muted">The first {fills.length} of {summary.valid} fills are shown.</p>}
          <ZoneNote zone={timeZone} />
          <DataTable
            caption="Fills the import would create"
            hideCaption
            className="fills-table"
            rows={fills}
            rowKey={(f) => f.row}
            rowClassName={(f) => (f.duplicate ? "is-duplicate" : undefined)}
            columns={[
              { header: "Row", num: true, cell: (f) => f.row },
              { header: "Time", cell: (f) => formatDateTime(f.executedAt, timeZone) },
              { header: "Symbol", title: (f) => f.symbol, cell: (f) => symbolLabel(f.symbol) },
              { header: "Side", cell: (f) => (f.side === "buy" ? "Buy" : "Sell") },
              { header: "Quantity", num: true, cell: (f) => formatQuantity(f.quantity, quantityPlaces) },
              { header: "Price", num: true, cell: (f) => formatPrice(f.price, pricePlaces) },
              { header: "Fees", num: true, cell: (f) => <Fees value={f.fees} estimated={(f as { feesEstimated?: boolean }).feesEstimated} currency={currency} /> },
              { header: "Execution ID", className: "fills-table__id", cell: (f) => f.executionId ?? <span className="muted">none</span> },
              {
                header: "Status",
                cell: (f) =>
                  f.duplicate ? (
                    <span className="badge badge--duplicate">Duplicate</span>
                  ) : f.deletedAt ? (
                    <span className="badge badge--deleted" title={`You deleted this fill on ${formatDateTime(f.deletedAt, timeZone)}`}>
                      Deleted by you
                    </span>
                  ) : (
                    <span className="badge">New</span>
                  ),
              },
            ]}
          />
        </section>
      )}
    </div>
  );
}

/** The skipped rows counted by reason, the commonest first. */
function skippedByReason(rows: ReadonlyArray<{ reason: string }>): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
