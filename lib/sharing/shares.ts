// Public links (issue 59, docs/sharing.md): a trade or a report shown to anyone holding the link, with only what
// the trader chose (`show`) and nothing else of theirs. The token is 32 random bytes (256 bits, base64url),
// stored as its SHA-256; unknown, malformed, revoked and expired tokens all answer the same 404 after the same
// single lookup. What a shared trade or report may carry is the allowlist below: every field of the trade, fill
// and statistics answers is classified, and a field not classified is never sent (the allowlist test fails
// until a new one is).
import { sha256Hex } from "../crypto/hash.ts";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { arrayLiteral, isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { tradeChart } from "../market/chart.ts";
import { dateTimeSchema as isoDateTime } from "../time/range.ts";
import { calendar, equityCurve, summary } from "../stats/stats.ts";
import { getTrade } from "../trades/trades.ts";
import { listTradeImages } from "../trades/images.ts";

export const SHARE_DEFAULT_DAYS = 30;
export const SHARE_MAX_DAYS = 365;
export const MAX_SHARES = 200;
export const MAX_REPORT_ACCOUNTS = 10;

const flag = () => z._default(z.boolean("must be true or false"), false);

export const ShareSchema = z
  .strictObject({
    kind: z.enum(["trade", "report"], { error: "must be trade or report" }),
    tradeId: z.optional(z.uuid("must be a uuid")),
    accountIds: z.optional(
      z.array(z.uuid("must be a uuid")).check(z.minLength(1, "must name at least one account"), z.maxLength(MAX_REPORT_ACCOUNTS, `must name at most ${MAX_REPORT_ACCOUNTS} accounts`)),
    ),
    from: z.optional(isoDateTime()),
    to: z.optional(isoDateTime()),
    show: z.strictObject({ money: flag(), notes: flag(), images: flag(), chart: flag() }),
    expiresInDays: z.optional(
      z.int("must be a whole number of days").check(z.minimum(1, "must be at least 1"), z.maximum(SHARE_MAX_DAYS, `must be at most ${SHARE_MAX_DAYS}`)),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.issues.push({ code: "custom", path: [path], message, input: v });
      if (v.kind === "trade" && !v.tradeId) issue("tradeId", "is required to share a trade");
      if (v.kind === "trade" && v.accountIds) issue("accountIds", "is for a report; a shared trade is its own account's");
      if (v.kind === "report" && !v.accountIds) issue("accountIds", "is required to share a report");
      if (v.kind === "report" && v.tradeId) issue("tradeId", "is for a trade, not a report");
      if (typeof v.from === "string" && typeof v.to === "string" && Date.parse(v.from) >= Date.parse(v.to)) issue("to", "must be after from");
    }),
  );
export type NewShare = z.infer<typeof ShareSchema>;
export type ShareShow = NewShare["show"];

export type Share = {
  id: string;
  kind: "trade" | "report";
  tradeId: string | null;
  accountIds: string[];
  from: string | null;
  to: string | null;
  show: ShareShow;
  expiresAt: string;
  views: number;
  lastViewedAt: string | null;
  createdAt: string;
};


const shareColumns = sql.raw(`s.id::text, s.kind, (select j.position_id::text from trade_journals j where j.id = s.journal_id) as "tradeId",
  to_json(s.account_ids) as "accountIds", ${isoUtc("s.from_at")} as "from", ${isoUtc("s.to_at")} as "to", s.show,
  ${isoUtc("s.expires_at")} as "expiresAt", s.views::int as views, ${isoUtc("s.last_viewed_at")} as "lastViewedAt", ${isoUtc("s.created_at")} as "createdAt"`);

/**
 * POST /api/shares: 201 with the link (its token this once). 404 for a trade that is not the trader's; 400
 * naming `accountIds` for an account that is not theirs; 409 past MAX_SHARES.
 */
export async function createShare(deps: Pick<Deps, "db" | "now" | "config">, user: AuthUser, input: NewShare) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(deps.now().getTime() + (input.expiresInDays ?? SHARE_DEFAULT_DAYS) * 86_400_000).toISOString();
  const accountIds = [...new Set(input.accountIds ?? [])];
  // A trade is shared by its journal (made empty when it has none), which follows it through every rebuild.
  const target =
    input.kind === "trade"
      ? sql`select a.id as account_id, trade_journal_ensure(p.id) as journal_id from positions p join accounts a on a.id = p.account_id
          where p.id = ${input.tradeId!}::uuid and a.user_id = ${user.id}::uuid for key share of a`
      : sql`select null::uuid as account_id, null::uuid as journal_id
          where (select count(*) from accounts where user_id = ${user.id}::uuid and id = any(${arrayLiteral(accountIds)}::uuid[])) = ${accountIds.length}`;
  const [row] = rowsOf<Share & { found: boolean }>(
    await deps.db.execute(sql`with target as (${target}), made as (
        insert into shares (user_id, kind, journal_id, account_ids, from_at, to_at, show, token_hash, expires_at)
        select ${user.id}::uuid, ${input.kind}, target.journal_id,
          case when ${input.kind} = 'trade' then array[target.account_id] else ${arrayLiteral(accountIds)}::uuid[] end,
          ${input.from ?? null}::timestamptz, ${input.to ?? null}::timestamptz, ${JSON.stringify(input.show)}::jsonb, ${sha256Hex(token)}, ${expiresAt}::timestamptz
        from target where (select count(*) from shares where user_id = ${user.id}::uuid) < ${MAX_SHARES}
        returning *
      )
      select exists (select 1 from target) as found, ${shareColumns} from (select 1) one left join made s on true`),
  );
  if (!row?.found) {
    if (input.kind === "trade") throw new AppError("NOT_FOUND", "No such trade.");
    throw new AppError("VALIDATION_ERROR", "Choose accounts of yours.", { fields: [{ path: "accountIds", message: "names an account that is not yours" }] });
  }
  if (!row.id) throw new AppError("CONFLICT", `You have ${MAX_SHARES} links: delete one you no longer need first.`);
  const { found: _f, ...share } = row;
  const base = deps.config.WEB_BASE_URL ?? "";
  return { ...share, url: `${base}/s/${token}`, token };
}

/** GET /api/shares: the trader's links, newest first, with their views; never a token. */
export async function listShares(deps: Pick<Deps, "db">, user: AuthUser): Promise<{ shares: Share[] }> {
  return { shares: rowsOf<Share>(await deps.db.execute(sql`select ${shareColumns} from shares s where s.user_id = ${user.id}::uuid order by s.created_at desc, s.id`)) };
}

/** DELETE /api/shares/:id: the link stops working at once; false when the trader has no such link. */
export async function deleteShare(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<boolean> {
  return rowsOf(await deps.db.execute(sql`delete from shares where id = ${id}::uuid and user_id = ${user.id}::uuid returning 1`)).length > 0;
}

// ---- What a shared trade or report carries ---------------------------------------------------------------

/** always: shown; money: only with show.money; notes: only with show.notes; never: not shown. */
export type FieldClass = "always" | "money" | "notes" | "never";
type Classes = Record<string, FieldClass | Record<string, FieldClass>>;

/** Every field of a trade (TradeDetailSchema's trade). A new field fails the allowlist test until it is here. */
export const TRADE_FIELDS = {
  id: "never",
  accountId: "never",
  currency: "money",
  symbol: "always",
  assetClass: "always",
  multiplier: "always",
  direction: "always",
  status: "always",
  openedAt: "always",
  closedAt: "always",
  openQuantity: "money",
  maxQuantity: "money",
  averageEntryPrice: "always",
  averageExitPrice: "always",
  fees: "money",
  grossPnl: "money",
  netPnl: "money",
  notes: "notes",
  tags: "notes",
  setup: "notes",
  rating: "notes",
  journalId: "never",
  playbookId: "never",
  playbookAnswers: "never",
  base: "never",
  risk: { stopPrice: "always", targetPrice: "always", plannedRisk: "money", oneR: "money", rMultiple: "always", plannedRR: "always" },
  excursions: {
    priceMae: "always",
    priceMfe: "always",
    positionMae: "money",
    positionMfe: "money",
    maeR: "always",
    mfeR: "always",
    bestExitPnl: "money",
    efficiency: "always",
    barsFrom: "always",
  },
} as const satisfies Classes;

/** Every field of a trade's fill (TradeDetailSchema's fills). */
export const FILL_FIELDS = {
  id: "never",
  accountId: "never",
  symbol: "never",
  assetClass: "never",
  multiplier: "never",
  side: "always",
  quantity: "never",
  price: "always",
  fees: "never",
  feesEstimated: "never",
  generated: "always",
  executedAt: "always",
  executionId: "never",
  importId: "never",
  role: "always",
  quantityInTrade: "money",
  feesInTrade: "money",
  splitFactor: "never",
} as const satisfies Classes;

/** Every field of the statistics a report carries (StatsSummarySchema, an equity point, a calendar day). */
export const SUMMARY_FIELDS = {
  currency: "money",
  missingRates: "never",
  trades: "always",
  wins: "always",
  losses: "always",
  netPnl: "money",
  grossPnl: "money",
  fees: "money",
  winRate: "always",
  profitFactor: "always",
  expectancy: "money",
  averageWin: "money",
  averageLoss: "money",
  largestWin: "money",
  largestLoss: "money",
  maxDrawdown: "money",
  r: { trades: "always", withRisk: "always", total: "always", expectancy: "always", averageWin: "always", averageLoss: "always", best: "always", worst: "always" },
} as const satisfies Classes;
export const EQUITY_POINT_FIELDS = { start: "always", netPnl: "money", equity: "money", trades: "always", rTotal: "always", withRisk: "always", rEquity: "always" } as const satisfies Classes;
export const CALENDAR_DAY_FIELDS = { date: "always", netPnl: "money", trades: "always", rTotal: "always", withRisk: "always" } as const satisfies Classes;

const shown = (c: FieldClass, show: ShareShow) => c === "always" || (c === "money" && show.money) || (c === "notes" && show.notes);

/** The fields of `value` its classes allow under `show`; anything unclassified is left out. */
export function allowed(value: Record<string, unknown>, classes: Classes, show: ShareShow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, c] of Object.entries(classes)) {
    if (!(key in value)) continue;
    const v = value[key];
    if (typeof c === "string") {
      if (shown(c, show)) out[key] = v;
    } else if (v === null) out[key] = null;
    else if (v && typeof v === "object") out[key] = allowed(v as Record<string, unknown>, c, show);
  }
  return out;
}

/** The trade's move in percent of its entry (signed for its direction): what money hidden shows besides R. */
function returnPercent(trade: { direction: string; averageEntryPrice: string | null; averageExitPrice: string | null }): string | null {
  const entry = Number(trade.averageEntryPrice);
  const exit = Number(trade.averageExitPrice);
  if (!trade.averageEntryPrice || !trade.averageExitPrice || !(entry > 0)) return null;
  const move = ((exit - entry) / entry) * (trade.direction === "short" ? -100 : 100);
  return move.toFixed(2);
}

type ShareRow = { id: string; kind: "trade" | "report"; user_id: string; position_id: string | null; account_ids: string[]; from_at: string | null; to_at: string | null; show: ShareShow; expires_at: string; email: string; email_verified: boolean; is_admin: boolean; plan: AuthUser["plan"] };

const gone = () => new AppError("NOT_FOUND", "This link does not exist, has expired or was revoked.");

/** The live share of a token, counted as a view when `count` (one atomic update: exact under any concurrency). */
async function shareOf(deps: Pick<Deps, "db" | "now">, token: string, count: boolean): Promise<{ row: ShareRow; owner: AuthUser }> {
  const now = deps.now().toISOString();
  const hash = sha256Hex(token);
  const found = count
    ? sql`update shares s set views = views + 1, last_viewed_at = ${now}::timestamptz where s.token_hash = ${hash} and s.expires_at > ${now}::timestamptz returning s.*`
    : sql`select s.* from shares s where s.token_hash = ${hash} and s.expires_at > ${now}::timestamptz`;
  const [row] = rowsOf<ShareRow>(
    await deps.db.execute(sql`with s as (${found})
      select s.id::text, s.kind, s.user_id::text, j.position_id::text, to_json(s.account_ids) as account_ids, ${sql.raw(isoUtc("s.from_at"))} as from_at,
        ${sql.raw(isoUtc("s.to_at"))} as to_at, s.show, ${sql.raw(isoUtc("s.expires_at"))} as expires_at, u.email, u.email_verified, u.is_admin, u.plan
      from s join users u on u.id = s.user_id left join trade_journals j on j.id = s.journal_id`),
  );
  if (!row || (row.kind === "trade" && !row.position_id)) throw gone();
  return { row, owner: { id: row.user_id, email: row.email, emailVerified: row.email_verified, isAdmin: row.is_admin, plan: row.plan } };
}

/** GET /api/public/shares/:token: what the link shows, and nothing else of the owner's. */
export async function publicShare(deps: Pick<Deps, "db" | "now" | "config" | "fetch" | "log" | "rateLimiter" | "defer">, token: string) {
  const { row, owner } = await shareOf(deps, token, true);
  const { show } = row;
  const head = { kind: row.kind, show, expiresAt: row.expires_at };
  if (row.kind === "trade") {
    const tradeId = row.position_id!;
    const [detail, chart, images] = await Promise.all([
      getTrade(deps, owner, tradeId),
      show.chart ? tradeChart(deps, { userId: owner.id }, tradeId, {}) : null,
      show.images ? listTradeImages(deps, owner, tradeId) : null,
    ]);
    const trade = { ...allowed(detail.trade as unknown as Record<string, unknown>, TRADE_FIELDS, show), returnPercent: returnPercent(detail.trade) };
    const fills = detail.fills.map((f) => allowed(f as unknown as Record<string, unknown>, FILL_FIELDS, show));
    const bars = chart ? (JSON.parse(chart) as { resolution: string; from: string; to: string; bars: unknown[] }) : null;
    return {
      ...head,
      trade,
      fills,
      chart: bars ? { resolution: bars.resolution, from: bars.from, to: bars.to, bars: bars.bars } : null,
      images: images ? images.images.map((i) => ({ id: i.id, contentType: i.contentType })) : [],
    };
  }
  const period = { ...(row.from_at ? { from: row.from_at } : {}), ...(row.to_at ? { to: row.to_at } : {}) };
  const caller = { userId: owner.id };
  // Accounts deleted since the link was made are left out; the order is the link's.
  const reports = await Promise.all(
    row.account_ids.map(async (accountId) => {
      const query = { accountId, ...period };
      try {
        const [s, e, cal] = await Promise.all([summary(deps, caller, query), equityCurve(deps, caller, { ...query, bucket: "day" }), calendar(deps, caller, query)]);
        return {
          summary: allowed(s as unknown as Record<string, unknown>, SUMMARY_FIELDS, show),
          equity: (e as { points: Array<Record<string, unknown>> }).points.map((p) => allowed(p, EQUITY_POINT_FIELDS, show)),
          calendar: (cal as { days: Array<Record<string, unknown>> }).days.map((d) => allowed(d, CALENDAR_DAY_FIELDS, show)),
        };
      } catch (err) {
        if (err instanceof AppError && err.code === "NOT_FOUND") return null;
        throw err;
      }
    }),
  );
  const live = reports.filter((r) => r !== null);
  if (!live.length) throw gone();
  return { ...head, from: row.from_at, to: row.to_at, reports: live };
}

/** GET /api/public/shares/:token/images/:imageId: a screenshot of a shared trade that shows its images. */
export async function publicShareImage(deps: Pick<Deps, "db" | "now">, token: string, imageId: string) {
  const { row, owner } = await shareOf(deps, token, false);
  if (row.kind !== "trade" || !row.show.images) throw new AppError("NOT_FOUND", "No such image.");
  return { owner, tradeId: row.position_id!, imageId };
}
