import { createAccount, deleteAccount, getAccount, listAccounts, updateAccount } from "../lib/accounts/accounts.ts";
import { AccountPatchSchema, DeleteAccountQuerySchema, IdParamSchema, NewAccountSchema } from "../lib/accounts/schema.ts";
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

export const accountsGroup = { prefix: "/api/accounts", app: accounts } as const satisfies Group;
