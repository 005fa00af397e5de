// Broker formats the import understands out of the box. A preset names the columns of a broker's
// export and how to read them; the web app matches presets against a file's header row.
// Each preset has a sample file in tests/fixtures/brokers/<id>.csv, read by tests/node/presets.test.ts.
import type { ImportMapping, ImportOptions } from "./schema.ts";

export type Preset = {
  id: string;
  name: string;
  /** The header row as the broker writes it (used to auto-detect the preset). */
  headers: string[];
  mapping: ImportMapping;
  options: ImportOptions;
};

const FOREX = "a currency conversion (forex): the journal does not track currency pairs";
const NOT_A_TRADE = "not a trade (a cash movement, dividend, transfer or note)";
const UNFILLED = "an order that was not filled";
const CORPORATE_ACTION = "a corporate action (a split or symbol change), not a trade: record a split on the stock's trade page";

export const PRESETS: readonly Preset[] = [
  {
    id: "generic",
    name: "Generic executions (template)",
    headers: ["Date/Time", "Symbol", "Side", "Quantity", "Price", "Fees", "Execution ID"],
    mapping: {
      executedAt: "Date/Time",
      symbol: "Symbol",
      side: "Side",
      quantity: "Quantity",
      price: "Price",
      fees: "Fees",
      executionId: "Execution ID",
    },
    options: { dateFormat: "iso", numberFormat: "1,234.56" },
  },
  // Activity Flex Query, Trades section, CSV with column headers (no header/trailer records, no section
  // codes), date format yyyyMMdd, time HHmmss, separator ";" ("20240119;093015"). A Flex query holds the
  // fields its owner ticked: these are the ones this preset expects, in IBKR's order. Only execution rows
  // are read (order and closed-lot rows would count a trade twice); forex conversions (CASH) are skipped and
  // listed, since the journal does not track currency pairs. Options come as OCC symbols. A combo (spread) order's
  // own row (AssetClass BAG) is skipped: its legs are the executions. IBOrderID is the order id: the legs of one
  // combo order make one option strategy (docs/options.md).
  {
    id: "ibkr-flex",
    name: "Interactive Brokers: Flex Query trades (CSV)",
    headers: [
      "ClientAccountID", "CurrencyPrimary", "AssetClass", "Symbol", "Description", "Conid", "TradeID", "Multiplier",
      "Strike", "Expiry", "DateTime", "Put/Call", "TradeDate", "Exchange", "Quantity", "TradePrice", "Proceeds",
      "IBCommission", "IBCommissionCurrency", "NetCash", "Open/CloseIndicator", "Buy/Sell", "IBOrderID", "IBExecID",
      "LevelOfDetail",
    ],
    mapping: {
      executedAt: "DateTime",
      symbol: "Symbol",
      side: "Buy/Sell",
      quantity: "Quantity",
      price: "TradePrice",
      fees: "IBCommission",
      executionId: "IBExecID",
      orderId: "IBOrderID",
      currency: "CurrencyPrimary",
    },
    options: {
      dateFormat: "YYYYMMDD",
      delimiter: ",",
      rowFilters: [
        { column: "LevelOfDetail", keep: ["EXECUTION"], reason: "not an execution (an order or closed-lot summary of one)" },
        { column: "AssetClass", drop: ["CASH"], reason: FOREX },
        { column: "AssetClass", drop: ["BAG"], reason: "a combo order's own row (its legs are imported, each on its row)" },
      ],
    },
  },
  // Activity Statement downloaded as CSV: the whole statement, of which the Trades section is read (the
  // "Order" rows; subtotals, totals, other sections and forex conversions are skipped, each listed). No side
  // column: sells have negative quantities. Options, written "AAPL 16FEB24 195 C", are read as OCC symbols.
  {
    id: "ibkr-activity",
    name: "Interactive Brokers: Activity Statement trades (CSV)",
    headers: [
      "Trades", "Header", "DataDiscriminator", "Asset Category", "Currency", "Symbol", "Date/Time", "Quantity",
      "T. Price", "C. Price", "Proceeds", "Comm/Fee", "Basis", "Realized P/L", "MTM P/L", "Code",
    ],
    mapping: { executedAt: "Date/Time", symbol: "Symbol", quantity: "Quantity", price: "T. Price", fees: "Comm/Fee", currency: "Currency" },
    options: {
      dateFormat: "iso",
      delimiter: ",",
      sideFromQuantitySign: true,
      headerRowContains: ["Trades", "DataDiscriminator"],
      rowFilters: [
        { column: "Trades", keep: ["Trades"], reason: "another section of the statement" },
        { column: "DataDiscriminator", keep: ["Order"], reason: "a header, subtotal or total line of the trades section" },
        { column: "Asset Category", drop: ["Forex"], reason: FOREX },
      ],
    },
  },
  // thinkorswim Account Statement exported to CSV: the "Account Trade History" section is read. Option rows
  // give the underlying, Exp ("16 FEB 24"), Strike and Type (CALL/PUT): read as OCC symbols. The section has
  // no fees: they are in the Cash Balance section ("Misc Fees", "Commissions & Fees"), charged at the fill's
  // time, and added from there. No execution id. A multi-leg order (VERTICAL, IRON CONDOR, CALENDAR...) is a first
  // row and a row per further leg with Exec Time and Spread blank ("CREDIT"/"DEBIT" in Net Price): the legs take
  // the first row's time, and the order is one option strategy (docs/options.md).
  {
    id: "schwab-tos",
    name: "Schwab thinkorswim: Account Statement, Account Trade History",
    headers: ["", "Exec Time", "Spread", "Side", "Qty", "Pos Effect", "Symbol", "Exp", "Strike", "Type", "Price", "Net Price", "Order Type"],
    mapping: {
      executedAt: "Exec Time",
      symbol: "Symbol",
      side: "Side",
      quantity: "Qty",
      price: "Price",
      optionExpiry: "Exp",
      optionStrike: "Strike",
      optionRight: "Type",
    },
    options: {
      dateFormat: "MM/DD/YYYY",
      delimiter: ",",
      headerRowContains: ["Exec Time", "Pos Effect"],
      endAtBlankRow: true,
      multiLegRows: { blankIn: "Exec Time" },
      feeSection: { headerRowContains: ["DATE", "TIME", "TYPE", "REF #"], date: "DATE", time: "TIME", fees: ["Misc Fees", "Commissions & Fees"] },
    },
  },
  // Order records exported as CSV (the stock and the option files share these columns; option symbols are
  // OCC without padding). Times carry EST/EDT. Unfilled orders are skipped. No fees, no execution id.
  {
    id: "webull",
    name: "Webull: order history",
    headers: ["Name", "Symbol", "Side", "Status", "Filled", "Total Qty", "Price", "Avg Price", "Time-in-Force", "Placed Time", "Filled Time"],
    mapping: { executedAt: "Filled Time", symbol: "Symbol", side: "Side", quantity: "Filled", price: "Avg Price" },
    options: { dateFormat: "MM/DD/YYYY", delimiter: ",", rowFilters: [{ column: "Filled", drop: ["0", ""], reason: UNFILLED }] },
  },
  // Reports and statements → Reports → Account activity (CSV). Share trades (Buy/Sell) and option trades
  // (BTO, STC, STO, BTC, whose Description names the contract: "SPY 2/16/2024 Call $480.00") are read; cash
  // rows are skipped. Dates have no time. Regulatory fees are only netted into Amount: they are what separates
  // it from the notional.
  {
    id: "robinhood",
    name: "Robinhood: account activity report",
    headers: ["Activity Date", "Process Date", "Settle Date", "Instrument", "Description", "Trans Code", "Quantity", "Price", "Amount"],
    mapping: {
      executedAt: "Activity Date",
      symbol: "Instrument",
      contract: "Description",
      side: "Trans Code",
      quantity: "Quantity",
      price: "Price",
      netAmount: "Amount",
    },
    options: {
      rowOrder: "newest-first",
      dateFormat: "MM/DD/YYYY",
      delimiter: ",",
      rowFilters: [{ column: "Trans Code", keep: ["Buy", "Sell", "BTO", "STC", "STO", "BTC"], reason: NOT_A_TRADE }],
    },
  },
  // Activity & Orders → History → Download, one account (the all-accounts file has more columns). The file starts with blank and title
  // lines and ends with disclaimers; only "YOU BOUGHT ..." / "YOU SOLD ..." rows are trades. Option symbols
  // such as "-SPY240216C480" are read as OCC symbols. Dates have no time.
  {
    id: "fidelity",
    name: "Fidelity: Accounts History download",
    headers: [
      "Run Date", "Action", "Symbol", "Description", "Type", "Quantity", "Price ($)", "Commission ($)", "Fees ($)",
      "Accrued Interest ($)", "Amount ($)", "Cash Balance ($)", "Settlement Date",
    ],
    mapping: {
      executedAt: "Run Date",
      symbol: "Symbol",
      side: "Action",
      quantity: "Quantity",
      price: "Price ($)",
      fees: "Commission ($)",
      extraFees: ["Fees ($)"],
    },
    options: {
      rowOrder: "newest-first",
      dateFormat: "MM/DD/YYYY",
      delimiter: ",",
      headerRowContains: ["Run Date", "Action"],
      sides: { buy: ["YOU BOUGHT*"], sell: ["YOU SOLD*"] },
      rowFilters: [{ column: "Action", keep: ["YOU BOUGHT*", "YOU SOLD*"], reason: NOT_A_TRADE }],
    },
  },
  // Accounts → Transactions → Download (the "All Transactions" CSV, "Activity/Trade Date" format), which
  // starts with title lines. Option rows name only the underlying in Symbol; the contract is in Description
  // ("PUT QQQ 01/26/24 412.500"). Dates have no time. Commission leaves out regulatory fees, which Amount
  // nets in: fees are what separates Amount from the notional.
  {
    id: "etrade",
    name: "E*TRADE: transactions download",
    headers: [
      "Activity/Trade Date", "Transaction Date", "Settlement Date", "Activity Type", "Description", "Symbol", "Cusip",
      "Quantity #", "Price $", "Amount $", "Commission", "Category", "Note",
    ],
    mapping: {
      executedAt: "Activity/Trade Date",
      symbol: "Symbol",
      side: "Activity Type",
      quantity: "Quantity #",
      price: "Price $",
      fees: "Commission",
      contract: "Description",
      netAmount: "Amount $",
    },
    options: {
      rowOrder: "newest-first",
      dateFormat: "MM/DD/YYYY",
      delimiter: ",",
      headerRowContains: ["Activity/Trade Date", "Activity Type"],
      sides: { buy: ["Bought*"], sell: ["Sold*"] },
      rowFilters: [{ column: "Activity Type", keep: ["Bought*", "Sold*"], reason: NOT_A_TRADE }],
    },
  },
  // History → Transactions → CSV (the layout with "Sub Type" and "Total"). Trades (Type "Trade") and the
  // deliveries that close or open positions (Type "Receive Deliver"): an option's expiration, assignment or
  // exercise closes it at 0 (Action BUY_TO_CLOSE / SELL_TO_CLOSE), and the stock an assignment or exercise
  // delivers opens or closes at the strike (Action BUY_TO_OPEN, SELL_TO_CLOSE...). A delivery without an
  // Action (older files' expirations) is listed, not guessed: the journal closes an expired option by itself
  // (docs/trading.md, "Option expiry and assignment"). Splits and symbol changes are corporate actions, not
  // trades: listed (a split is recorded on the trade page). "Average Price" is signed cash per unit of
  // quantity (x100 for options), hence signedPrice and priceIncludesMultiplier. Order # is per order, not
  // per fill, so it is not the execution id: it is the order id (every leg of a spread, and both sides of a roll,
  // carry the same one; a leg's partial fills may be minutes apart), which makes the order one option strategy.
  {
    id: "tastytrade",
    name: "tastytrade: transaction history",
    headers: [
      "Date", "Type", "Sub Type", "Action", "Symbol", "Instrument Type", "Description", "Value", "Quantity",
      "Average Price", "Commissions", "Fees", "Multiplier", "Root Symbol", "Underlying Symbol", "Expiration Date",
      "Strike Price", "Call or Put", "Order #", "Total", "Currency",
    ],
    mapping: {
      executedAt: "Date",
      symbol: "Symbol",
      side: "Action",
      quantity: "Quantity",
      price: "Average Price",
      fees: "Commissions",
      extraFees: ["Fees"],
      orderId: "Order #",
      currency: "Currency",
    },
    options: {
      dateFormat: "iso",
      delimiter: ",",
      signedPrice: true,
      priceIncludesMultiplier: true,
      sides: { buy: ["BUY_TO_OPEN", "BUY_TO_CLOSE"], sell: ["SELL_TO_OPEN", "SELL_TO_CLOSE"] },
      rowFilters: [
        { column: "Type", keep: ["Trade", "Receive Deliver"], reason: NOT_A_TRADE },
        { column: "Sub Type", drop: ["Reverse Split", "Forward Split", "Stock Split", "Symbol Change", "Spin*"], reason: CORPORATE_ACTION },
        { column: "Action", keep: ["BUY_TO_OPEN", "BUY_TO_CLOSE", "SELL_TO_OPEN", "SELL_TO_CLOSE"], reason: "a delivery without a side (an expired option the journal closes by itself)" },
      ],
    },
  },
  // TradeManager → Orders tab, filled orders, exported to CSV: one row per order with its average fill
  // price. Option symbols such as "SPY 240216C480" are read as OCC symbols. Orders with nothing filled are
  // skipped. The column names follow TradeStation's order fields; check them against a current export.
  {
    id: "tradestation",
    name: "TradeStation: TradeManager orders",
    headers: [
      "Account", "Order #", "Symbol", "Type", "Qty", "Qty Filled", "Qty Left", "Order Type", "Limit", "Stop",
      "Avg Fill Price", "Status", "Entered", "Filled/Canceled", "Duration", "Route", "Commission",
    ],
    mapping: {
      executedAt: "Filled/Canceled",
      symbol: "Symbol",
      side: "Type",
      quantity: "Qty Filled",
      price: "Avg Fill Price",
      fees: "Commission",
      executionId: "Order #",
    },
    options: { dateFormat: "MM/DD/YYYY", delimiter: ",", rowFilters: [{ column: "Qty Filled", drop: ["0", ""], reason: UNFILLED }] },
  },
  // The Fills report exported to CSV (rather than Orders: one row per fill, with its commission and fill id).
  // The UTC "_timestamp" is used, not the local "Timestamp", so the account's zone does not matter.
  {
    id: "tradovate",
    name: "Tradovate: fills",
    headers: [
      "_id", "_orderId", "_contractId", "_timestamp", "_tradeDate", "_action", "_qty", "_price", "_active", "_accountId",
      "Fill ID", "Order ID", "Timestamp", "Date", "Account", "B/S", "Quantity", "Price", "_priceFormat",
      "_priceFormatType", "_tickSize", "Contract", "Product", "Product Description", "commission",
    ],
    mapping: {
      executedAt: "_timestamp",
      symbol: "Contract",
      side: "B/S",
      quantity: "Quantity",
      price: "Price",
      fees: "commission",
      executionId: "Fill ID",
    },
    options: { dateFormat: "iso", delimiter: "," },
  },
  // Control Center → Executions tab → right-click → Export, en-US format (the grid writes a trailing comma,
  // hence the last, unnamed column). Instruments such as "ES 03-24" are read as futures "ESH24".
  {
    id: "ninjatrader",
    name: "NinjaTrader 8: executions grid",
    headers: ["Instrument", "Action", "Quantity", "Price", "Time", "ID", "E/X", "Position", "Order ID", "Name", "Commission", "Rate", "Account", "Connection", ""],
    mapping: {
      executedAt: "Time",
      symbol: "Instrument",
      side: "Action",
      quantity: "Quantity",
      price: "Price",
      fees: "Commission",
      executionId: "ID",
    },
    options: { dateFormat: "MM/DD/YYYY", delimiter: ",", sides: { buy: ["BuyToCover"], sell: ["SellShort"] } },
  },
  // DAS Trader Pro (also as offered by Lightspeed): Trade Log window → right-click → Export. The file holds
  // one day and only times: the request must give options.tradeDate. No fees; Cloid is per order, not per fill.
  {
    id: "das",
    name: "DAS Trader Pro: trades window",
    headers: ["Time", "Symb", "Side", "Price", "Qty", "Route", "Broker", "Account", "Type", "Cloid"],
    mapping: { time: "Time", symbol: "Symb", side: "Side", quantity: "Qty", price: "Price" },
    options: { delimiter: "," },
  },
  // Trade history CSV from TradeZero's client portal. Fees are the commission plus each regulatory and ECN
  // column; "ECN Add" is negative when adding liquidity earned a rebate, hence feeRebates.
  {
    id: "tradezero",
    name: "TradeZero: trade history",
    headers: [
      "Account", "T/D", "S/D", "Currency", "Type", "Side", "Symbol", "Qty", "Price", "Exec Time", "Comm", "SEC", "TAF",
      "NSCC", "Nasdaq", "ECN Remove", "ECN Add", "Gross Proceeds", "Net Proceeds", "Clr Broker", "Liq", "Note",
    ],
    mapping: {
      date: "T/D",
      time: "Exec Time",
      symbol: "Symbol",
      side: "Side",
      quantity: "Qty",
      price: "Price",
      fees: "Comm",
      extraFees: ["SEC", "TAF", "NSCC", "Nasdaq", "ECN Remove", "ECN Add"],
      currency: "Currency",
    },
    options: { dateFormat: "MM/DD/YYYY", delimiter: ",", feeRebates: true, sides: { buy: ["BC"] } },
  },
  // schwab.com → Accounts → History → Transactions → Export (CSV), the layout of 2024 on: quoted cells, amounts
  // with "$", dates without a time. A row posted later than it happened reads "01/18/2024 as of 01/17/2024":
  // the "as of" date is the trade's. Options are named "SPY 02/16/2024 480.00 C". Dividends, transfers and
  // the closing "Transactions Total" line are listed, not imported. No execution id.
  {
    id: "schwab",
    name: "Charles Schwab: transaction history",
    headers: ["Date", "Action", "Symbol", "Description", "Quantity", "Price", "Fees & Comm", "Amount"],
    mapping: { executedAt: "Date", symbol: "Symbol", side: "Action", quantity: "Quantity", price: "Price", fees: "Fees & Comm" },
    options: {
      rowOrder: "newest-first",
      dateFormat: "MM/DD/YYYY",
      delimiter: ",",
      headerRowContains: ["Date", "Action", "Fees & Comm"],
      rowFilters: [
        {
          column: "Action",
          keep: ["Buy", "Sell", "Sell Short", "Buy to Cover", "Buy to Open", "Buy to Close", "Sell to Open", "Sell to Close"],
          reason: NOT_A_TRADE,
        },
      ],
    },
  },
  // My Accounts → Transaction history → Download (CSV, "OfxDownload.csv"): the file holds the holdings first,
  // then the transactions, each line with a trailing comma (hence the last, unnamed column). Only Buy and Sell
  // are trades: sweeps into the money market fund, dividends and reinvestments are listed, not imported.
  // Sells carry negative shares. Dates have no time. No execution id.
  {
    id: "vanguard",
    name: "Vanguard: brokerage transaction history",
    headers: [
      "Account Number", "Trade Date", "Settlement Date", "Transaction Type", "Transaction Description", "Investment Name", "Symbol",
      "Shares", "Share Price", "Principal Amount", "Commissions and Fees", "Net Amount", "Accrued Interest", "Account Type", "",
    ],
    mapping: { executedAt: "Trade Date", symbol: "Symbol", side: "Transaction Type", quantity: "Shares", price: "Share Price", fees: "Commissions and Fees" },
    options: {
      rowOrder: "newest-first",
      dateFormat: "iso",
      delimiter: ",",
      headerRowContains: ["Trade Date", "Transaction Type", "Share Price"],
      rowFilters: [{ column: "Transaction Type", keep: ["Buy", "Sell"], reason: NOT_A_TRADE }],
    },
  },
  // Accounts → History → Download (CSV). RecordType "Trade" rows are trades; "Financial" rows (deposits,
  // dividends, interest) are listed. Sells carry negative quantities. Commission and Fee are added. Dates have
  // no time. No execution id.
  {
    id: "firstrade",
    name: "Firstrade: account history",
    headers: ["Symbol", "Quantity", "Price", "Action", "Description", "TradeDate", "SettledDate", "Interest", "Amount", "Commission", "Fee", "CUSIP", "RecordType"],
    mapping: { executedAt: "TradeDate", symbol: "Symbol", side: "Action", quantity: "Quantity", price: "Price", fees: "Commission", extraFees: ["Fee"] },
    options: {
      rowOrder: "newest-first", dateFormat: "iso", delimiter: ",", rowFilters: [{ column: "RecordType", keep: ["Trade"], reason: NOT_A_TRADE }] },
  },
  // Zerodha Console → Reports → Tradebook → Download (CSV), equity segment. Times are India's (IST) whatever
  // the account's zone. The tradebook has no charges (they are in the contract notes). F&O symbols such as
  // "NIFTY24JANFUT" are not in the journal's futures list: those rows are refused, naming the symbol.
  {
    id: "zerodha",
    name: "Zerodha: Console tradebook",
    headers: ["symbol", "isin", "trade_date", "exchange", "segment", "series", "trade_type", "auction", "quantity", "price", "trade_id", "order_id", "order_execution_time"],
    mapping: { executedAt: "order_execution_time", symbol: "symbol", side: "trade_type", quantity: "quantity", price: "price", executionId: "trade_id" },
    options: { dateFormat: "iso", delimiter: ",", timezone: "Asia/Kolkata" },
  },
  // Moving from another journal (docs/imports.md, "Moving from another journal"): a row is a whole trade,
  // which makes two fills (its open and its close); what the trader wrote goes onto the trade, and the preview
  // reconciles the file's own P&L with the journal's, per symbol.
  // Tradervue → Trades → Export (CSV): the 13 columns every export has (others, such as Commissions, Fees or
  // the MFE/MAE columns, depend on the plan and are not read); Side is L or S; times in the export's zone,
  // read in the account's; Tags comma-separated in one cell.
  {
    id: "tradervue",
    name: "Tradervue: trades export",
    headers: ["Open Datetime", "Close Datetime", "Symbol", "Side", "Volume", "Exec Count", "Entry Price", "Exit Price", "Gross P&L", "Gross P&L (%)", "Shared", "Notes", "Tags"],
    mapping: {
      executedAt: "Open Datetime",
      closedAt: "Close Datetime",
      symbol: "Symbol",
      side: "Side",
      quantity: "Volume",
      price: "Entry Price",
      exitPrice: "Exit Price",
      pnl: "Gross P&L",
      notes: "Notes",
      tags: "Tags",
    },
    options: { dateFormat: "iso", delimiter: ",", sides: { buy: ["L"] } },
  },
  // TradeZella → Trade Log → Export, "All columns": one row per trade with its open and close ("19:08:29 EST":
  // the zone is read off the time), side long or short, entry and exit prices, Commission and Fee, and what the
  // trader tagged (Custom Tags, Mistakes, Playbook), all kept as tags. Backtesting trades (Account Name
  // "Backtesting") are listed, not imported. Setups is left out of the header: not every export has it.
  {
    id: "tradezella",
    name: "TradeZella: trade log export",
    headers: [
      "Account Name", "Adjusted Cost", "Adjusted Proceeds", "Avg Buy Price", "Avg Sell Price", "Exit Efficiency", "Best Exit", "Best Exit Price",
      "Best Exit Time", "Close Date", "Close Time", "Commission", "Custom Tags", "Duration", "Entry Price", "Executions", "Exit Price", "Gross P&L",
      "Trade Risk", "Initial Target", "Instrument", "Spread Type", "Mistakes", "Net P&L", "Net ROI", "Open Date", "Open Time", "Pips", "Reward Ratio",
      "Points", "Position MAE", "Position MFE", "Price MAE", "Price MFE", "Realized RR", "Return Per Pip", "Reviewed", "Side", "Status", "Playbook",
      "Symbol", "Ticks Value", "Ticks Per Contract", "Fee", "Swap", "Rating", "Quantity", "Zella Score",
    ],
    mapping: {
      date: "Open Date",
      time: "Open Time",
      closeDate: "Close Date",
      closeTime: "Close Time",
      symbol: "Symbol",
      side: "Side",
      quantity: "Quantity",
      price: "Entry Price",
      exitPrice: "Exit Price",
      fees: "Commission",
      extraFees: ["Fee"],
      pnl: "Gross P&L",
      tags: "Custom Tags",
      extraTags: ["Mistakes", "Playbook"],
    },
    options: {
      dateFormat: "iso",
      delimiter: ",",
      rowFilters: [{ column: "Account Name", drop: ["Backtesting"], reason: "a backtesting trade, not one of the account's" }],
    },
  },
  // Alpaca's account activities of type FILL, one row per fill with the API's own field names (Trading API,
  // GET /v2/account/activities/FILL; docs/imports.md "Broker sync"): what the Alpaca sync reads, and a file
  // of the same fields a trader saved from the API. Times are RFC 3339 in UTC; "sell_short" is a sell.
  // Options come as OCC symbols without padding ("AAPL240119C00150000"). Alpaca charges no commission on
  // stocks and lists regulatory fees as separate activities: fills carry none (the account's fee schedule
  // applies, when it has one).
  {
    id: "alpaca",
    name: "Alpaca: account activities (fills)",
    headers: ["id", "activity_type", "transaction_time", "type", "price", "qty", "side", "symbol", "leaves_qty", "order_id", "cum_qty", "order_status"],
    mapping: { executedAt: "transaction_time", symbol: "symbol", side: "side", quantity: "qty", price: "price", executionId: "id", orderId: "order_id" },
    options: {
      dateFormat: "iso",
      delimiter: ",",
      timezone: "Etc/UTC",
      sides: { sell: ["sell_short"] },
      rowFilters: [{ column: "activity_type", keep: ["FILL"], reason: NOT_A_TRADE }],
    },
  },
  // History → Export → Trades (trades.csv): one row per trade with its pair ("XXBTZUSD"), UTC time, volume and
  // the fee in the quote currency. The pair is the symbol: import a pair quoted in the account's currency.
  {
    id: "kraken",
    name: "Kraken: trades export",
    headers: ["txid", "ordertxid", "pair", "time", "type", "ordertype", "price", "cost", "fee", "vol", "margin", "misc", "ledgers"],
    mapping: { executedAt: "time", symbol: "pair", side: "type", quantity: "vol", price: "price", fees: "fee", executionId: "txid" },
    options: { dateFormat: "iso", delimiter: ",", timezone: "Etc/UTC" },
  },
  // Coinbase (Advanced) → Reports → Fills (CSV): one row per fill, its product ("BTC-USD") as the symbol, size,
  // price and fee in the quote currency, which must be the account's (a row quoted in another is refused).
  {
    id: "coinbase",
    name: "Coinbase Advanced: fills report",
    headers: ["portfolio", "trade id", "product", "side", "created at", "size", "size unit", "price", "fee", "total", "price/fee/total unit"],
    mapping: { executedAt: "created at", symbol: "product", side: "side", quantity: "size", price: "price", fees: "fee", executionId: "trade id", currency: "price/fee/total unit" },
    options: { dateFormat: "iso", delimiter: "," },
  },
  // History → Export (CSV). Times are UTC. Orders of every kind ("Market buy", "Limit sell", "Stop buy"...)
  // are trades; deposits, dividends and interest are listed. The price is in the instrument's currency, which
  // must be the account's: a US share bought from a GBP account is refused, never converted. Trading 212's
  // export has only the columns a period needs, so fees (a currency conversion, UK stamp duty) are not read.
  {
    id: "trading212",
    name: "Trading 212: history export",
    headers: [
      "Action", "Time", "ISIN", "Ticker", "Name", "No. of shares", "Price / share", "Currency (Price / share)", "Exchange rate", "Result",
      "Currency (Result)", "Total", "Currency (Total)", "Notes", "ID",
    ],
    mapping: { executedAt: "Time", symbol: "Ticker", side: "Action", quantity: "No. of shares", price: "Price / share", executionId: "ID", currency: "Currency (Price / share)" },
    options: {
      dateFormat: "iso",
      delimiter: ",",
      timezone: "Etc/UTC",
      sides: { buy: ["Market buy", "Limit buy", "Stop buy", "Stop limit buy"], sell: ["Market sell", "Limit sell", "Stop sell", "Stop limit sell"] },
      rowFilters: [
        { column: "Action", keep: ["Market buy", "Limit buy", "Stop buy", "Stop limit buy", "Market sell", "Limit sell", "Stop sell", "Stop limit sell"], reason: NOT_A_TRADE },
      ],
    },
  },
  // Inbox → Transactions → Export (CSV), English: dates DD-MM-YYYY, times in Amsterdam, sells with negative
  // quantities, fees as negative amounts in the account's currency. Each money column is followed by an
  // unnamed column with its currency: the price's (the 9th column) must be the account's. DEGIRO names the
  // product and its ISIN, not a ticker: the ISIN is the symbol (one per instrument, whatever the exchange).
  // Order ID is per order, not per fill.
  {
    id: "degiro",
    name: "DEGIRO: transactions",
    headers: [
      "Date", "Time", "Product", "ISIN", "Reference exchange", "Venue", "Quantity", "Price", "", "Local value", "", "Value", "",
      "Exchange rate", "Transaction and/or third party fees", "", "Total", "", "Order ID",
    ],
    mapping: { date: "Date", time: "Time", symbol: "ISIN", quantity: "Quantity", price: "Price", fees: "Transaction and/or third party fees", currency: "9" },
    options: { dateFormat: "DD/MM/YYYY", delimiter: ",", timezone: "Europe/Amsterdam", sideFromQuantitySign: true },
  },
];

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
