// Interactive Brokers' Flex Web Service (version 3), as its public documentation describes it: a statement is
// asked for with the trader's token and query id (SendRequest, answering a reference code), then fetched with
// that code (GetStatement), which answers "in progress" (1019) until the statement is ready. Every answer
// that is not the statement is a <FlexStatementResponse> with a Status and, when not Success, an ErrorCode and
// an ErrorMessage. The base is FLEX_BASE_URL (the test seam); the paths are fixed, and the statement's own
// "Url" is not followed (a response never decides where the token goes next).
import { XMLParser } from "fast-xml-parser";
import Papa from "papaparse";
import type { Deps } from "../../deps.ts";
import { resolveVersion } from "../../health/index.ts";
import { findPreset } from "../../imports/presets.ts";
import { FACTS, type SyncAdapter } from "../adapter.ts";
import { SyncError, type SyncProblem } from "../errors.ts";

const DEFAULT_BASE = "https://ndcdyn.interactivebrokers.com";
const PATH = "/AccountManagement/FlexWebService";
/** Statements take seconds to minutes to generate: this many asks, FLEX_POLL_MS apart, before giving up. */
const MAX_POLLS = 30;
/** Throttled (1018) or busy (1009...) SendRequests are asked again this many times, waiting longer each time. */
const MAX_RETRIES = 4;


const CODES: Record<string, { problem: SyncProblem; field?: "token" | "queryId"; says: string }> = {
  "1001": { problem: "retry", says: "the statement could not be generated at this time" },
  "1003": { problem: "unavailable", says: "the statement is not available (check the query's period)" },
  "1004": { problem: "retry", says: "the statement is incomplete at this time" },
  "1005": { problem: "retry", says: "settlement data is not ready at this time" },
  "1006": { problem: "retry", says: "FIFO P/L data is not ready at this time" },
  "1007": { problem: "retry", says: "MTM P/L data is not ready at this time" },
  "1008": { problem: "retry", says: "MTM and FIFO P/L data is not ready at this time" },
  "1009": { problem: "retry", says: "the service is under heavy load" },
  "1010": { problem: "settings", field: "queryId", says: "legacy Flex queries are no longer supported: make an Activity Flex query" },
  "1011": { problem: "credentials", field: "token", says: "the service account is inactive" },
  "1012": { problem: "credentials", field: "token", says: "the token has expired: generate a new one in Client Portal (Flex Web Service configuration)" },
  "1013": { problem: "credentials", field: "token", says: "the token is restricted to other IP addresses" },
  "1014": { problem: "settings", field: "queryId", says: "the query id is not valid" },
  "1015": { problem: "credentials", field: "token", says: "the token is not valid" },
  "1016": { problem: "settings", field: "queryId", says: "the account in the query is not valid" },
  "1017": { problem: "retry", says: "the reference code is not valid" },
  "1018": { problem: "retry", says: "too many requests were made with this token" },
  "1019": { problem: "retry", says: "the statement is still being generated" },
  "1020": { problem: "settings", field: "queryId", says: "the request could not be validated" },
  "1021": { problem: "retry", says: "the statement could not be retrieved at this time" },
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, parseAttributeValue: false, trimValues: true });

type Envelope = { Status?: string; ReferenceCode?: string; ErrorCode?: string; ErrorMessage?: string };

/** The service's answer as text: its own User-Agent (the service asks for one), no redirect followed. */
async function call(deps: Pick<Deps, "config" | "fetch">, step: "SendRequest" | "GetStatement", token: string, q: string): Promise<string> {
  const base = (deps.config.FLEX_BASE_URL ?? DEFAULT_BASE).replace(/\/$/, "");
  const url = `${base}${PATH}/${step}?${new URLSearchParams({ t: token, q, v: "3" })}`;
  let res: Response;
  try {
    res = await deps.fetch(url, { headers: { "User-Agent": `TradingJournal/${resolveVersion(deps.config.APP_VERSION) ?? "dev"}` }, redirect: "manual", signal: AbortSignal.timeout(60_000) });
  } catch {
    throw new SyncError(null, "retry", "Interactive Brokers' Flex Web Service could not be reached.");
  }
  const text = await res.text();
  if (!res.ok) throw new SyncError(null, "retry", `Interactive Brokers' Flex Web Service answered HTTP ${res.status}.`);
  return text;
}

/** The envelope of an answer that is not a statement, or null for a statement. */
function envelopeOf(text: string): Envelope | null {
  const head = text.trimStart().slice(0, 300);
  if (!/^(<\?xml[^>]*>\s*)?<FlexStatementResponse[\s>]/.test(head)) return null;
  let parsed: { FlexStatementResponse?: Envelope };
  try {
    parsed = parser.parse(text) as { FlexStatementResponse?: Envelope };
  } catch {
    throw new SyncError(null, "retry", "Interactive Brokers' Flex Web Service answered something that is not XML.");
  }
  return parsed.FlexStatementResponse ?? {};
}

function failure(envelope: Envelope): SyncError {
  const code = String(envelope.ErrorCode ?? "");
  const known = CODES[code];
  const words = known?.says ?? envelope.ErrorMessage ?? "it refused the request";
  return new SyncError(code || null, known?.problem ?? "unavailable", `Interactive Brokers${code ? ` (error ${code})` : ""}: ${words}.`, known?.field ?? null);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SendRequest: the reference code of a statement being generated for the token and query id. Throttled and
 * busy answers are asked again (FLEX_POLL_MS, doubling); a wrong token or query is a SyncError at once.
 */
export async function requestStatement(deps: Pick<Deps, "config" | "fetch">, token: string, queryId: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const text = await call(deps, "SendRequest", token, queryId);
    const envelope = envelopeOf(text);
    if (!envelope) throw new SyncError(null, "retry", "Interactive Brokers answered the request with a statement instead of a reference code.");
    if (envelope.Status === "Success" && envelope.ReferenceCode) return String(envelope.ReferenceCode);
    const error = failure(envelope);
    if (error.problem !== "retry" || attempt >= MAX_RETRIES) throw error;
    await wait(deps.config.FLEX_POLL_MS * 2 ** attempt);
  }
}

/** GetStatement, asked until the statement is ready: its text (XML or CSV, as the query is set up). */
export async function fetchStatement(deps: Pick<Deps, "config" | "fetch">, token: string, referenceCode: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const text = await call(deps, "GetStatement", token, referenceCode);
    const envelope = envelopeOf(text);
    if (!envelope) return text;
    const error = failure(envelope);
    if (error.problem !== "retry" || attempt >= MAX_POLLS) throw error;
    await wait(deps.config.FLEX_POLL_MS);
  }
}

/** The ibkr-flex preset's columns and the Flex XML attribute each comes from (IBKR's field names). */
const ATTRIBUTES: Record<string, string> = {
  ClientAccountID: "accountId",
  CurrencyPrimary: "currency",
  AssetClass: "assetCategory",
  Symbol: "symbol",
  Description: "description",
  Conid: "conid",
  TradeID: "tradeID",
  Multiplier: "multiplier",
  Strike: "strike",
  Expiry: "expiry",
  DateTime: "dateTime",
  "Put/Call": "putCall",
  TradeDate: "tradeDate",
  Exchange: "exchange",
  Quantity: "quantity",
  TradePrice: "tradePrice",
  Proceeds: "proceeds",
  IBCommission: "ibCommission",
  IBCommissionCurrency: "ibCommissionCurrency",
  NetCash: "netCash",
  "Open/CloseIndicator": "openCloseIndicator",
  "Buy/Sell": "buySell",
  FXRateToBase: "fxRateToBase",
  IBOrderID: "ibOrderID",
  IBExecID: "ibExecID",
  LevelOfDetail: "levelOfDetail",
};

/** The columns the statement adds to the preset's (lib/sync/adapter.ts, FACTS): the rate to the account's base, and that base. */
const EXTRA = Object.values(FACTS["ibkr-flex"].extraColumns!);

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * A statement as rows under the ibkr-flex preset's header (lib/imports/presets.ts): a CSV statement's columns
 * taken by name (its query must hold the preset's columns), an XML one's <Trade> elements, in every
 * FlexStatement of the answer (a <Trade> is an execution: its level of detail says so when the query has no
 * such field). A statement that is neither is a SyncError.
 */
export function statementRows(text: string): string[][] {
  const header = [...findPreset("ibkr-flex")!.headers, ...EXTRA];
  const head = text.trimStart().slice(0, 300);
  if (!head.startsWith("<")) {
    const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: true });
    return parsed.data.map((row) => header.map((column) => row[column] ?? ""));
  }
  if (!/^(<\?xml[^>]*>\s*)?<FlexQueryResponse[\s>]/.test(head)) throw new SyncError(null, "unavailable", "Interactive Brokers sent a statement this journal cannot read.");
  let parsed: { FlexQueryResponse?: { FlexStatements?: { FlexStatement?: unknown } } };
  try {
    parsed = parser.parse(text) as typeof parsed;
  } catch {
    throw new SyncError(null, "unavailable", "Interactive Brokers sent a statement that is not well-formed XML.");
  }
  type Statement = { Trades?: { Trade?: unknown }; AccountInformation?: { currency?: string } };
  const statements = asList(parsed.FlexQueryResponse?.FlexStatements?.FlexStatement as Statement[] | Statement | undefined);
  const rows: string[][] = [];
  for (const statement of statements) {
    // The account's base currency: Account Information's currency, when the query holds that section.
    const base = String(asList(statement?.AccountInformation)[0]?.currency ?? "");
    for (const trade of asList(statement?.Trades?.Trade as Array<Record<string, string>> | Record<string, string> | undefined)) {
      rows.push(header.map((column) => (column === "LevelOfDetail" ? (trade.levelOfDetail ?? "EXECUTION") : column === "BaseCurrency" ? base : (trade[ATTRIBUTES[column]!] ?? ""))));
    }
  }
  return rows;
}

/**
 * The Flex Web Service as a sync adapter: the secret is the token, the setting the query id. A statement is
 * the period its query sets (IBKR keeps no cursor): what was imported before is skipped as duplicates.
 */
export const adapter: SyncAdapter = {
  ...FACTS["ibkr-flex"],
  async verify(ctx, { secret, settings }) {
    await requestStatement(ctx, secret.token!, String(settings.queryId));
  },
  async pull(ctx, { secret, settings }) {
    const reference = await requestStatement(ctx, secret.token!, String(settings.queryId));
    return { records: [await fetchStatement(ctx, secret.token!, reference)], cursor: null };
  },
  normalise: (records) => records.flatMap((statement) => statementRows(String(statement))),
};
