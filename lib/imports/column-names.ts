// The header names a column of each field goes by in brokers' and journals' exports, in one place: the server's
// suggestion (suggest.ts, which then checks them against the values) and the web app's first guess from the
// header alone (web/src/pages/import/detect.ts) both read this table. Matched against the name lowercased, with
// underscores as spaces and spaces collapsed (columnKey).

export const COLUMN_FIELDS = [
  "executedAt", "date", "time", "symbol", "side", "quantity", "price", "fees", "executionId", "orderId", "assetClass", "multiplier", "currency", "stopPrice", "targetPrice",
] as const;
export type ColumnField = (typeof COLUMN_FIELDS)[number];

export const COLUMN_NAMES: Record<ColumnField, RegExp> = {
  executedAt: /^(date ?\/ ?time|date ?time|date and time|timestamp|time ?stamp|ts|executed ?at|execution ?(date|time)|exec ?time|filled ?(at|time)|fill ?time|trade ?time|transaction ?time|when)$/,
  date: /^(date|trade ?date|t\/d|activity ?date|run ?date|transaction ?date|deal ?date|datum)$/,
  time: /^(time|exec ?time|execution ?time|trade ?time|uhrzeit)$/,
  symbol: /^(symbol|symb|sym|ticker|ticker ?symbol|instrument|contract|security|stock|product|asset|market|pair|code)$/,
  side: /^(side|action|buy ?\/ ?sell|b ?\/ ?s|type|direction|dir|operation|transaction ?type|order ?side|trade ?type)$/,
  quantity: /^(quantity|qty|shares|units|lots|volume|size|filled|filled ?qty|filled ?quantity|exec ?qty|no\.? of shares|contracts|amount ?\(?shares\)?)$/,
  price: /^(price|px|fill ?price|filled ?price|avg ?(fill ?)?(price|px)|average ?(fill ?)?price|exec ?price|execution ?price|t\. ?price|trade ?price|rate|deal ?price|kurs)$/,
  fees: /^(fees?|total ?fees?|commissions?|comm|commission ?(\/|and|&) ?fees?|fees? ?(\/|and|&) ?comm(ission)?s?|comm\/fee|charges|costs?|brokerage|gebühren)$/,
  executionId: /^(execution ?id|exec ?id|fill ?id|trade ?id|deal ?id|transaction ?id|txn ?id|id)$/,
  orderId: /^(order ?(id|#|no\.?|number)|ib ?order ?id|brokerage ?order ?id)$/,
  assetClass: /^(asset ?class|asset ?category|instrument ?type|security ?type)$/,
  multiplier: /^(multiplier|mult)$/,
  currency: /^(currency|ccy|curr|currency ?primary)$/,
  stopPrice: /^(stop|stop ?price|stop ?loss|sl|initial ?stop)$/,
  targetPrice: /^(target|target ?price|take ?profit|tp|profit ?target)$/,
};

/** A header cell as COLUMN_NAMES match it: trimmed, lowercase, underscores as spaces, spaces collapsed. */
export const columnKey = (name: string) => name.trim().replace(/[_\s]+/g, " ").toLowerCase();
