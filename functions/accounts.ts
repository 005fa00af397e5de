import { createAccount, deleteAccount, getAccount, listAccounts, updateAccount } from "../lib/accounts/accounts.ts";
import { AccountPatchSchema, DeleteAccountQuerySchema, IdParamSchema, NewAccountSchema } from "../lib/accounts/schema.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";

export const accounts = createRouter()
  .get("/", requireUser, async (c) => c.json({ accounts: await listAccounts(c.var.deps, currentUser(c)) }))
  .post("/", requireUser, validate("json", NewAccountSchema), async (c) =>
    c.json(await createAccount(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get("/:id", requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getAccount(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/:id", requireUser, validate("param", IdParamSchema), validate("json", AccountPatchSchema), async (c) =>
    c.json(await updateAccount(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", requireUser, validate("param", IdParamSchema), validate("query", DeleteAccountQuerySchema), async (c) => {
    await deleteAccount(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("query"));
    return c.body(null, 204);
  });

export const accountsGroup = { prefix: "/api/accounts", app: accounts } as const satisfies Group;
