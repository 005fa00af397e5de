import { createAccount, deleteAccount, getAccount, listAccounts, updateAccount } from "../lib/accounts/accounts.ts";
import { AccountPatchSchema, DeleteAccountQuerySchema, IdParamSchema, NewAccountSchema } from "../lib/accounts/schema.ts";
import * as z from "zod/mini";
import { exportAccountCsv } from "../lib/accounts/export.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { AccountListSchema, AccountSchema } from "../lib/http/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";

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
  });

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
