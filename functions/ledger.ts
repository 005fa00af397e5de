import { currentUser, requireUser, requireUserInStatement, sessionClaim } from "../lib/http/auth.ts";
import { createRouter, jsonText, validate, type Group } from "../lib/http/index.ts";
import { addLedgerEntry, deleteLedgerEntry, getLedgerPage } from "../lib/ledger/ledger.ts";
import { AccountParamSchema, EntryParamSchema, LedgerPageQuerySchema, NewLedgerEntrySchema } from "../lib/ledger/schema.ts";

export const ledger = createRouter()
  // The busiest read: its statement checks the session itself, so a page costs one round trip.
  .get("/:accountId", requireUserInStatement, validate("param", AccountParamSchema), validate("query", LedgerPageQuerySchema), async (c) =>
    jsonText(c, await getLedgerPage(c.var.deps, sessionClaim(c), c.req.valid("param").accountId, c.req.valid("query"))),
  )
  .post("/:accountId/entries", requireUser, validate("param", AccountParamSchema), validate("json", NewLedgerEntrySchema), async (c) =>
    c.json(await addLedgerEntry(c.var.deps, currentUser(c), c.req.valid("param").accountId, c.req.valid("json")), 201),
  )
  .delete("/:accountId/entries/:entryId", requireUser, validate("param", EntryParamSchema), async (c) => {
    const { accountId, entryId } = c.req.valid("param");
    await deleteLedgerEntry(c.var.deps, currentUser(c), accountId, entryId);
    return c.body(null, 204);
  });

export const ledgerGroup = { prefix: "/api/ledger", app: ledger } as const satisfies Group;
