import { createAccount, deleteAccount, getAccount, listAccounts, updateAccount } from "../lib/accounts/accounts.ts";
import { AccountPatchSchema, DeleteAccountQuerySchema, IdParamSchema, NewAccountSchema } from "../lib/accounts/schema.ts";
import * as z from "zod/mini";
import { exportAccountCsv } from "../lib/archive/account-csv.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { AccountListSchema, AccountSchema } from "../lib/accounts/responses.ts";
import { BrokerConnectionViewSchema, BrokerRunListSchema, BrokerTestSchema } from "../lib/sync/responses.ts";
import { PropEvaluationSchema, PropEvaluationStatusSchema, PropWarningsSchema } from "../lib/prop/responses.ts";
import { BrokerConnectionPatchSchema, BrokerConnectionSchema, SchwabCallbackQuerySchema, SchwabStartQuerySchema } from "../lib/sync/schema.ts";
import { finishSchwab, startSchwab } from "../lib/sync/schwab-oauth.ts";
import { deleteConnection, getConnection, listRuns, pauseConnection, saveConnection, startSync, testConnection } from "../lib/sync/sync.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { deleteEvaluation, getEvaluation, putEvaluation } from "../lib/prop/evaluations.ts";
import { EvaluationSchema } from "../lib/prop/schema.ts";
import { getWarnings, putWarnings, WarningsSchema } from "../lib/prop/warnings.ts";

export const accounts = createRouter()
  .get("/", describeRoute({ tag: "accounts", summary: "Your accounts, with their cash balance", responses: { 200: { description: "Every account of yours.", schema: AccountListSchema } } }), requireUser, async (c) => c.json({ accounts: await listAccounts(c.var.deps, currentUser(c)) }))
  .post(
    "/",
    describeRoute({
      tag: "accounts",
      summary: "Create an account (a non-zero starting balance is its opening ledger entry)",
      responses: { 201: { description: "The new account.", schema: AccountSchema } },
      errors: ["CONFLICT", "INVALID_TIMEZONE", "FORBIDDEN", "TIER_LIMIT_ACCOUNTS"],
    }),
    requireUser,
    validate("json", NewAccountSchema), async (c) =>
    c.json(await createAccount(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  // Schwab's sign-in comes back here (SCHWAB_REDIRECT_URI), for the user who started it (lib/sync/schwab-oauth.ts).
  .get(
    "/broker-oauth/schwab/callback",
    describeRoute({ tag: "accounts", summary: "Schwab's sign-in comes back: the connection is stored, and the browser sent to the account page saying what happened", responses: { 302: { description: "To the account page (?broker=connected or ?brokerError=...)." } } }),
    requireUser, validate("query", SchwabCallbackQuerySchema), async (c) => c.redirect(await finishSchwab(c.var.deps, currentUser(c), c.req.valid("query")), 302),
  )
  .get("/:id", describeRoute({ tag: "accounts", summary: "One account", responses: { 200: { description: "The account.", schema: AccountSchema } } }), requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getAccount(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch(
    "/:id",
    describeRoute({
      tag: "accounts",
      summary: "Rename an account, or change its time zone, brokerage or opening balance date",
      responses: { 200: { description: "The account after the change.", schema: AccountSchema } },
      errors: ["CONFLICT", "INVALID_TIMEZONE", "FORBIDDEN"],
    }),
    requireUser,
    validate("param", IdParamSchema),
    validate("json", AccountPatchSchema), async (c) =>
    c.json(await updateAccount(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete(
    "/:id",
    describeRoute({ tag: "accounts", summary: "Delete an account and everything in it (confirm=delete-history when it has history)", responses: { 204: { description: "Deleted." } }, errors: ["CONFLICT"] }),
    requireUser,
    validate("param", IdParamSchema),
    validate("query", DeleteAccountQuerySchema), async (c) => {
    await deleteAccount(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("query"));
    return c.body(null, 204);
  })
  // An account's prop-firm evaluation (lib/prop; DESIGN.md section 11, "Prop-firm accounts").
  .put(
    "/:id/evaluation",
    describeRoute({ tag: "accounts", summary: "Set the account's prop-firm evaluation or funded account: the firm's rules from a trading day on", responses: { 200: { description: "The evaluation.", schema: PropEvaluationSchema } }, errors: ["NOT_FOUND"] }),
    requireUser, validate("param", IdParamSchema), validate("json", EvaluationSchema), async (c) =>
    c.json(await putEvaluation(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .get(
    "/:id/evaluation",
    describeRoute({ tag: "accounts", summary: "The account's evaluation and its status now: balance, floor, daily loss, target, trading days, consistency, the first breach and its fill", responses: { 200: { description: "The evaluation and its status.", schema: PropEvaluationStatusSchema } }, errors: ["NOT_FOUND"] }),
    requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getEvaluation(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .get(
    "/:id/evaluation/warnings",
    describeRoute({ tag: "accounts", summary: "The evaluation's warning thresholds, and the warnings given in the last 7 days (at most one per kind and trading day)", responses: { 200: { description: "The warnings.", schema: PropWarningsSchema } }, errors: ["NOT_FOUND"] }),
    requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getWarnings(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .put(
    "/:id/evaluation/warnings",
    describeRoute({
      tag: "accounts",
      summary: "Set the evaluation's warnings: when the distance to the floor or the day's loss left falls under these (null: no warning of that kind), a notice in the app, and an email when `email` is true",
      responses: { 200: { description: "The warnings.", schema: PropWarningsSchema } },
      errors: ["VALIDATION_ERROR", "NOT_FOUND"],
    }),
    requireUser, validate("param", IdParamSchema), validate("json", WarningsSchema), async (c) =>
    c.json(await putWarnings(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete(
    "/:id/evaluation",
    describeRoute({ tag: "accounts", summary: "Remove the account's evaluation (its trades stay)", responses: { 204: { description: "Removed." } }, errors: ["NOT_FOUND"] }),
    requireUser, validate("param", IdParamSchema), async (c) => {
    await deleteEvaluation(c.var.deps, currentUser(c), c.req.valid("param").id);
    return c.body(null, 204);
  })
  // An account's broker connection (lib/sync; DESIGN.md section 10, "Broker sync").
  .get(
    "/:id/broker-connection",
    describeRoute({ tag: "accounts", summary: "The account's broker connection (never its token), with its last run; null when it has none", responses: { 200: { description: "The connection.", schema: z.object({ connection: z.nullable(BrokerConnectionViewSchema) }) } } }),
    requireUser, validate("param", IdParamSchema), async (c) => c.json(await getConnection(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .put(
    "/:id/broker-connection",
    describeRoute({ tag: "accounts", summary: "Connect the account to its broker: Interactive Brokers' Flex Web Service, Alpaca, Kraken or Coinbase (the credentials are checked with the broker, then stored sealed)", responses: { 200: { description: "The connection.", schema: BrokerConnectionViewSchema } } }),
    requireUser, validate("param", IdParamSchema), validate("json", BrokerConnectionSchema), async (c) =>
      c.json(await saveConnection(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .patch(
    "/:id/broker-connection",
    describeRoute({ tag: "accounts", summary: "Pause the connection's scheduled pulls, or resume them (Sync now still pulls)", responses: { 200: { description: "The connection.", schema: BrokerConnectionViewSchema } } }),
    requireUser, validate("param", IdParamSchema), validate("json", BrokerConnectionPatchSchema), async (c) =>
      c.json(await pauseConnection(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json").paused)),
  )
  .post(
    "/:id/broker-connection/test",
    describeRoute({ tag: "accounts", summary: "Check the kept credentials with the broker now (nothing imported); refused ones break the connection", responses: { 200: { description: "Whether the broker accepted them, its words when not, and the connection.", schema: BrokerTestSchema } } }),
    requireUser, validate("param", IdParamSchema), async (c) => c.json(await testConnection(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .get(
    "/:id/broker-connection/oauth/schwab/start",
    describeRoute({ tag: "accounts", summary: "Connect Schwab: the browser is sent to Schwab's sign-in (OAuth with PKCE), which comes back to the callback", responses: { 302: { description: "To Schwab's sign-in." } }, errors: ["CONFLICT"] }),
    requireUser, validate("param", IdParamSchema), validate("query", SchwabStartQuerySchema), async (c) =>
      c.redirect(await startSchwab(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("query")), 302),
  )
  .delete(
    "/:id/broker-connection",
    describeRoute({ tag: "accounts", summary: "Disconnect the account from its broker (its imports stay)", responses: { 204: { description: "Disconnected." } } }),
    requireUser, validate("param", IdParamSchema), async (c) => {
      await deleteConnection(c.var.deps, currentUser(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  )
  .post(
    "/:id/broker-connection/sync",
    describeRoute({ tag: "accounts", summary: "Pull the broker's executions now, into the import pipeline (the run already going, if one is)", responses: { 202: { description: "The run, carried on after the answer.", schema: z.object({ runId: z.string() }) } } }),
    requireUser, validate("param", IdParamSchema), async (c) => c.json(await startSync(c.var.deps, currentUser(c), c.req.valid("param").id), 202),
  )
  .get(
    "/:id/broker-connection/runs",
    describeRoute({ tag: "accounts", summary: "The account's sync runs, newest first, with their counts and errors", responses: { 200: { description: "The runs.", schema: BrokerRunListSchema } } }),
    requireUser, validate("param", IdParamSchema), async (c) => c.json(await listRuns(c.var.deps, currentUser(c), c.req.valid("param").id)),
  );

const ExportParamSchema = z.object({
  id: z.uuid("must be a uuid"),
  kind: z.enum(["fills", "trades", "ledger"], { error: "must be fills, trades or ledger" }),
});

export const accountExports = createRouter().get(
  "/:id/export/:kind",
  describeRoute({
    tag: "accounts",
    summary: "An account's fills (the generic import format), trades with journal fields, or ledger, as CSV",
    responses: { 200: { description: "The CSV file (RFC 4180, UTF-8, a header row).", contentType: "text/csv", schema: z.string() } },
  }),
  requireUser,
  validate("param", ExportParamSchema),
  async (c) => {
    const { id, kind } = c.req.valid("param");
    const { csv, fileName } = await exportAccountCsv(c.var.deps, currentUser(c), id, kind);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", `attachment; filename="${fileName}"`);
    c.header("Cache-Control", "no-store");
    return c.body(csv);
  },
);
accounts.route("/", accountExports);


export const accountsGroup = { prefix: "/api/accounts", app: accounts } as const satisfies Group;
