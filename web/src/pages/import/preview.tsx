import { Fees } from "../../components/fees.tsx";
import { ZoneNote } from "../../components/ui.tsx";
import { formatDateTime, formatNumber, formatPnl, formatPrice, formatQuantity, priceDecimals, quantityDecimals, symbolLabel, toneOf } from "../../lib/format.ts";
import type { PreviewResult } from "./upload.ts";

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
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Rows with errors</caption>
              <thead>
                <tr>
                  <th scope="col" className="num">
                    Row
                  </th>
                  <th scope="col">Problems</th>
                </tr>
              </thead>
              <tbody>
                {grouped.map(({ row, problems }) => (
                  <tr key={row}>
                    <th scope="row" className="num">
                      {row}
                    </th>
                    <td>
                      <ul className="cell-errors">
                        {problems.map((p, i) => (
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
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Rows left out, with the reason</caption>
                <thead>
                  <tr>
                    <th scope="col" className="num">
                      Row
                    </th>
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {skippedRows.map((r) => (
                    <tr key={r.row}>
                      <th scope="row" className="num">
                        {r.row}
                      </th>
                      <td>{r.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </section>
      )}

      {symbols.length > 0 && (
        <section aria-labelledby="preview-positions-heading">
          <h3 id="preview-positions-heading">Positions this import adds to</h3>
          <div className="table-wrap">
            <table className="stack-table">
              <caption className="visually-hidden">Net quantity per symbol from the new fills</caption>
              <thead>
                <tr>
                  <th scope="col">Symbol</th>
                  <th scope="col" className="num">
                    New fills
                  </th>
                  <th scope="col" className="num">
                    Net quantity
                  </th>
                </tr>
              </thead>
              <tbody>
                {symbols.map((s) => (
                  <tr key={s.symbol}>
                    <th scope="row" title={s.symbol}>{symbolLabel(s.symbol)}</th>
                    <td className="num" data-label="New fills">
                      {s.fills}
                    </td>
                    <td className="num" data-label="Net quantity">
                      {formatNumber(s.netQuantity)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      {fills.length > 0 && (
        <section aria-labelledby="preview-fills-heading">
          <h3 id="preview-fills-heading">Fills</h3>
          {fills.length < summary.valid && <p className="muted">The first {fills.length} of {summary.valid} fills are shown.</p>}
          <ZoneNote zone={timeZone} />
          <div className="table-wrap">
            <table className="fills-table stack-table">
              <caption className="visually-hidden">Fills the import would create</caption>
              <thead>
                <tr>
                  <th scope="col" className="num">
                    Row
                  </th>
                  <th scope="col">Time</th>
                  <th scope="col">Symbol</th>
                  <th scope="col">Side</th>
                  <th scope="col" className="num">
                    Quantity
                  </th>
                  <th scope="col" className="num">
                    Price
                  </th>
                  <th scope="col" className="num">
                    Fees
                  </th>
                  <th scope="col">Execution ID</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {fills.map((f) => (
                  <tr key={f.row} className={f.duplicate ? "is-duplicate" : undefined}>
                    <td className="num" data-label="Row">
                      {f.row}
                    </td>
                    <td data-label="Time">{formatDateTime(f.executedAt, timeZone)}</td>
                    <td title={f.symbol} data-label="Symbol">
                      {symbolLabel(f.symbol)}
                    </td>
                    <td data-label="Side">{f.side === "buy" ? "Buy" : "Sell"}</td>
                    <td className="num" data-label="Quantity">
                      {formatQuantity(f.quantity, quantityPlaces)}
                    </td>
                    <td className="num" data-label="Price">
                      {formatPrice(f.price, pricePlaces)}
                    </td>
                    <td className="num" data-label="Fees">
                      <Fees value={f.fees} estimated={(f as { feesEstimated?: boolean }).feesEstimated} currency={currency} />
                    </td>
                    <td className="fills-table__id" data-label="Execution ID">
                      {f.executionId ?? <span className="muted">none</span>}
                    </td>
                    <td data-label="Status">
                      {f.duplicate ? (
                        <span className="badge badge--duplicate">Duplicate</span>
                      ) : f.deletedAt ? (
                        <span className="badge badge--deleted" title={`You deleted this fill on ${formatDateTime(f.deletedAt, timeZone)}`}>
                          Deleted by you
                        </span>
                      ) : (
                        <span className="badge">New</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
