// An account's data as CSV (docs/accounts.md, "Export"): its fills in the generic import format (so the file
// imports again, into this instance or another), its trades with their journal fields and the option strategy each
// is a leg of, and its ledger.
// Every text cell (notes, tags, setup, symbols, execution ids) is kept from being read as a spreadsheet
// formula, whatever rule let the text in. With a base currency set (docs/currencies.md), the trades' and the
// ledger's amounts also come converted, in columns beside them, with the rate and its date.
import Papa from "papaparse";
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal, multiplyDecimals } from "../money.ts";
import { ratesOnDays, type DayRate } from "../fx/base.ts";
import { strategiesOfTrades } from "../options/strategies.ts";
import { requireOwnAccount } from "../accounts/accounts.ts";

export type ExportKind = "fills" | "trades" | "ledger";

/** A cell of free text starting like a formula (= + - @, tab, carriage return) gets a leading apostrophe (OWASP's CSV injection advice). */
export function textCell(value: string | null): string {
  if (value === null) return "";
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

async function fillsCsv(deps: Pick<Deps, "db">, accountId: string): Promise<string> {
  const rows = rowsOf<{ at: string; symbol: string; side: string; quantity: string; price: string; fees: string; execution_id: string | null; asset_class: string; multiplier: string }>(
    await deps.db.execute(sql`select ${sql.raw(isoUtc("executed_at"))} as at, symbol, side, quantity::text as quantity, price::text as price,
        fees::text as fees, execution_id, asset_class, multiplier::text as multiplier
      from fills where account_id = ${accountId} order by executed_at, id`),
  );
  return Papa.unparse({
    fields: ["Date/Time", "Symbol", "Side", "Quantity", "Price", "Fees", "Execution ID", "Asset Class", "Multiplier"],
    data: rows.map((r) => [r.at, textCell(r.symbol), r.side.toUpperCase(), formatDecimal(r.quantity), formatDecimal(r.price), formatDecimal(r.fees), textCell(r.execution_id), r.asset_class, formatDecimal(r.multiplier)]),
  });
}

type ExportDeps = Pick<Deps, "db" | "config" | "fetch" | "now" | "log">;

/**
 * The columns in the base beside an amount (its day in the account's zone): "Net P&L (EUR)", "Rate (USD per
 * EUR)", "Rate Date"; none when no base is set or the account is in it; blanks for a day without a rate.
 */
async function baseColumns(deps: ExportDeps, user: AuthUser, account: { id: string; currency: string }, label: string, days: string[]) {
  const found = await ratesOnDays(deps, user.id, account, days);
  if (!found) return { fields: [] as string[], cells: (_amount: string, _day: string) => [] as string[] };
  const cell = (amount: string, rate: DayRate | undefined) => (rate ? [multiplyDecimals(amount, rate.k), rate.rate, rate.rateDate] : ["", "", ""]);
  return {
    fields: [`${label} (${found.base})`, `Rate (${account.currency} per ${found.base})`, "Rate Date"],
    cells: (amount: string, day: string) => cell(amount, found.rates.get(day)),
  };
}

async function tradesCsv(deps: ExportDeps, user: AuthUser, account: { id: string; currency: string }): Promise<string> {
  const accountId = account.id;
  // Each option trade's strategy (docs/options.md).
  const strategies = await strategiesOfTrades(deps, user.id, accountId);
  const rows = rowsOf<Record<"id" | "symbol" | "asset_class" | "direction" | "opened_at" | "closed_at" | "max_quantity" | "open_quantity" | "avg_entry" | "avg_exit" | "fees" | "gross_pnl" | "net_pnl" | "setup" | "rating" | "tags" | "notes" | "base_day", string | null>>(
    await deps.db.execute(sql`select p.id::text as id, p.symbol, p.asset_class, p.direction, ${sql.raw(isoUtc("p.opened_at"))} as opened_at, ${sql.raw(isoUtc("p.closed_at"))} as closed_at,
        p.max_quantity::text as max_quantity, p.open_quantity::text as open_quantity,
        -- Averages at the precision the screens show them (web/src/lib/format.ts AVERAGE_PRICE_DECIMALS).
        case when p.entry_quantity = 0 then null else round(p.entry_value / p.entry_quantity, 4)::text end as avg_entry,
        case when p.exit_quantity = 0 then null else round(p.exit_value / p.exit_quantity, 4)::text end as avg_exit,
        p.fees::text as fees, p.gross_pnl::text as gross_pnl, p.net_pnl::text as net_pnl, j.setup, j.rating::text as rating,
        array_to_string(j.tags, ';') as tags, j.notes,
        to_char((coalesce(p.closed_at, ${deps.now().toISOString()}::timestamptz) at time zone a.timezone)::date, 'YYYY-MM-DD') as base_day
      from positions p join accounts a on a.id = p.account_id left join trade_journals j on j.position_id = p.id
      where p.account_id = ${accountId} order by p.opened_at, p.id`),
  );
  const inBase = await baseColumns(deps, user, account, "Net P&L", rows.map((r) => r.base_day!));
  const dec = (v: string | null) => (v === null ? "" : formatDecimal(v));
  return Papa.unparse({
    fields: ["Trade ID", "Symbol", "Asset Class", "Direction", "Opened", "Closed", "Max Quantity", "Open Quantity", "Avg Entry", "Avg Exit", "Fees", "Gross P&L", "Net P&L", "Setup", "Rating", "Tags", "Notes", "Strategy ID", "Strategy", ...inBase.fields],
    data: rows.map((r) => [
      r.id,
      textCell(r.symbol),
      r.asset_class,
      r.direction,
      r.opened_at,
      r.closed_at ?? "",
      dec(r.max_quantity),
      dec(r.open_quantity),
      dec(r.avg_entry),
      dec(r.avg_exit),
      dec(r.fees),
      dec(r.gross_pnl),
      dec(r.net_pnl),
      textCell(r.setup),
      r.rating ?? "",
      textCell(r.tags),
      textCell(r.notes),
      strategies.get(r.id!)?.id ?? "",
      strategies.get(r.id!)?.kind ?? "",
      ...inBase.cells(r.net_pnl!, r.base_day!),
    ]),
  });
}

/** The ledger, oldest first; a fill's row also says what the fill was (symbol, side, quantity, price), as the ledger page does. */
async function ledgerCsv(deps: ExportDeps, user: AuthUser, account: { id: string; currency: string }): Promise<string> {
  const accountId = account.id;
  type Row = { at: string; day: string; type: string; amount: string; balance_after: string; note: string | null; fill_id: string | null; symbol: string | null; side: string | null; quantity: string | null; price: string | null };
  const rows = rowsOf<Row>(
    // The balance after each entry: the days before it (ledger_days) plus its running sum in its day.
    await deps.db.execute(sql`select ${sql.raw(isoUtc("le.occurred_at"))} as at, to_char(le.day, 'YYYY-MM-DD') as day, le.type, le.amount::text as amount,
        (d.base + le.day_balance)::text as balance_after,
        le.note, le.fill_id::text as fill_id, f.symbol, f.side, f.quantity::text as quantity, f.price::text as price
      from ledger_entries le
      join (select day, sum(total) over (order by day) - total as base from ledger_days where account_id = ${accountId}) d on d.day = le.day
      left join fills f on f.id = le.fill_id
      where le.account_id = ${accountId} order by le.day, le.day_rank`),
  );
  const decimal = (v: string | null) => (v === null ? "" : formatDecimal(v));
  const inBase = await baseColumns(deps, user, account, "Amount", rows.map((r) => r.day));
  return Papa.unparse({
    fields: ["Date/Time", "Type", "Amount", "Balance", "Note", "Fill ID", "Symbol", "Side", "Quantity", "Price", ...inBase.fields],
    data: rows.map((r) => [
      r.at, r.type, formatDecimal(r.amount), formatDecimal(r.balance_after), textCell(r.note), r.fill_id ?? "",
      textCell(r.symbol), r.side ?? "", decimal(r.quantity), decimal(r.price), ...inBase.cells(r.amount, r.day),
    ]),
  });
}

/** GET /api/accounts/:id/export/:kind: the CSV text and the file name to offer. */
export async function exportAccountCsv(deps: ExportDeps, user: AuthUser, accountId: string, kind: ExportKind): Promise<{ csv: string; fileName: string }> {
  const account = await requireOwnAccount(deps, user, accountId);
  const csv = kind === "fills" ? await fillsCsv(deps, accountId) : kind === "trades" ? await tradesCsv(deps, user, account) : await ledgerCsv(deps, user, account);
  return { csv: `${csv}\r\n`, fileName: `${kind}-${accountId.slice(0, 8)}.csv` };
}
