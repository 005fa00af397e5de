// Who may read what of another user's journal (issue 59, docs/sharing.md): the one table of the routes a mentor
// reaches with `?mentee=<userId>`, the scope each needs and where its account is named. Every route of the API
// that is not here is the owner's alone: a mentor's GET of it is 404, any other method 403. A public link reaches
// nothing but GET /api/public/shares/:token. The access test walks every mounted route against this table.

export const MENTOR_SCOPES = ["trades", "journal", "stats", "days"] as const;
export type MentorScope = (typeof MENTOR_SCOPES)[number];

/**
 * Where a mentor's request names the account it reads, checked against the grant before the handler runs:
 * `query` the accountId query parameter (required: without it the route would read every account), `path` the
 * `:accountId` path parameter, `trade` the account of the trade `:id`.
 */
export type AccountAt = "query" | "path" | "trade";

export type MentorRoute = {
  scope: MentorScope;
  account: AccountAt;
  /** Trades in the answer carry what the trader wrote (notes, tags, setup, rating, playbook): blanked without the journal scope. */
  journalFields?: true;
};

/** "METHOD /path" as the router mounts it -> what a mentor may do there. */
export const MENTOR_ROUTES: Readonly<Record<string, MentorRoute>> = {
  "GET /api/trades": { scope: "trades", account: "query", journalFields: true },
  "GET /api/trades/:id": { scope: "trades", account: "trade", journalFields: true },
  "GET /api/trades/:id/chart": { scope: "trades", account: "trade" },
  "GET /api/trades/:id/comments": { scope: "trades", account: "trade" },
  "POST /api/trades/:id/comments": { scope: "trades", account: "trade" },
  "GET /api/trades/:id/images": { scope: "journal", account: "trade" },
  "GET /api/trades/:id/images/:imageId": { scope: "journal", account: "trade" },
  "GET /api/stats/summary": { scope: "stats", account: "query" },
  "GET /api/stats/calendar": { scope: "stats", account: "query" },
  "GET /api/stats/equity": { scope: "stats", account: "query" },
  "GET /api/stats/breakdown": { scope: "stats", account: "query" },
  "GET /api/stats/r-distribution": { scope: "stats", account: "query" },
  "GET /api/stats/excursions": { scope: "stats", account: "query" },
  "GET /api/stats/tags": { scope: "stats", account: "query" },
  "GET /api/stats/what-if": { scope: "stats", account: "query" },
  "GET /api/days": { scope: "days", account: "query" },
  "GET /api/days/:accountId/:day": { scope: "days", account: "path" },
  "GET /api/days/:accountId/:day/images": { scope: "days", account: "path" },
  "GET /api/days/:accountId/:day/images/:imageId": { scope: "days", account: "path" },
  "GET /api/days/:accountId/:day/comments": { scope: "days", account: "path" },
  "POST /api/days/:accountId/:day/comments": { scope: "days", account: "path" },
};

/** The trade fields that are what the trader wrote: a mentor without the journal scope reads them blank. */
export const JOURNAL_FIELDS = { notes: null, tags: [], setup: null, rating: null, playbookId: null, playbookAnswers: {} } as const;

/** A trade (or a list's trades) with what the trader wrote blanked. */
export function withoutJournal(body: unknown): unknown {
  if (!body || typeof body !== "object") return body;
  const blank = (trade: unknown) => (trade && typeof trade === "object" ? { ...trade, ...JOURNAL_FIELDS } : trade);
  const b = body as { trade?: unknown; trades?: unknown[] };
  if (b.trade) return { ...b, trade: blank(b.trade) };
  if (Array.isArray(b.trades)) return { ...b, trades: b.trades.map(blank) };
  return body;
}
