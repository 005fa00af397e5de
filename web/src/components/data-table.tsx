// The app's tables (docs/web.md, "Tables"): one component for the header row, the cells, the figures' alignment,
// the empty state and the phone layout. At 600 px and less a `stack-table` shows each row as a card, each cell after
// its column's name (the `data-label` the layout sweep of the browser tests checks); a row's header cell and an
// actions column go without one.
import { Fragment, type ReactNode } from "react";

export type Column<Row> = {
  /** The column's name: its header, and each cell's label on a phone. */
  header: string;
  /** The header read by screen readers only (an actions column); its cells go without a phone label. */
  hideHeader?: boolean;
  /** Figures: aligned right, header and cells. */
  num?: boolean;
  /** The cell is the row's header (`<th scope="row">`): it names the row, and goes without a phone label. */
  rowHeader?: boolean;
  /** Classes of the header cell and of each cell (beside `num`). */
  headerClassName?: string;
  className?: string | ((row: Row) => string | undefined);
  /** A cell's tooltip. */
  title?: (row: Row) => string;
  /** The cell's content; with `ownCell`, the whole cell (a component that renders its own `<td>`). */
  cell: (row: Row, index: number) => ReactNode;
  ownCell?: boolean;
};

export type DataTableProps<Row> = {
  /** What the table holds ("Imports into this account, newest first"): its caption. */
  caption: ReactNode;
  /** The caption for screen readers only (the page's heading already says it). */
  hideCaption?: boolean;
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** A row's class (a duplicate fill's). */
  rowClassName?: (row: Row) => string | undefined;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** Each row as a card on a phone (the default), or a plain table that scrolls (a narrow two-column table). */
  stack?: boolean;
  className?: string;
};

const classes = (...names: Array<string | false | undefined>) => names.filter(Boolean).join(" ") || undefined;

export function DataTable<Row>({ caption, hideCaption = false, columns, rows, rowKey, rowClassName, empty, stack = true, className }: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <div className="table-wrap">
      <table className={classes(className, stack && "stack-table")}>
        <caption className={hideCaption ? "visually-hidden" : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={classes(c.headerClassName, c.num && "num")}>
                {c.hideHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)}>
              {columns.map((c) => {
                if (c.ownCell) return <Fragment key={c.header}>{c.cell(row, i)}</Fragment>;
                const props = {
                  className: classes(typeof c.className === "function" ? c.className(row) : c.className, c.num && "num"),
                  title: c.title?.(row),
                };
                return c.rowHeader ? (
                  <th key={c.header} scope="row" {...props}>
                    {c.cell(row, i)}
                  </th>
                ) : (
                  <td key={c.header} data-label={c.hideHeader || !stack ? undefined : c.header} {...props}>
                    {c.cell(row, i)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
