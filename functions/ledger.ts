import { currentUser, requireUser, requireUserInStatement, statementCaller } from "../lib/http/auth.ts";
import { LedgerEntrySchema, LedgerPageSchema } from "../lib/ledger/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, jsonText, validate, type Group } from "../lib/http/index.ts";
import { addLedgerEntry, deleteLedgerEntry, getLedgerPage } from "../lib/ledger/ledger.ts";
import { AccountParamSchema, EntryParamSchema, LedgerPageQuerySchema, NewLedgerEntrySchema } from "../lib/ledger/schema.ts";

export const ledger = createRouter()
  // The busiest read: its statement checks the session itself, so a page costs one round trip.
  .get(
    "/:accountId",
    describeRoute({ tag: "ledger", summary: "A page of an account's cash ledger, newest first, with the balance after its first row", responses: { 200: { description: "The page.", schema: LedgerPageSchema } } }),
    requireUserInStatement, validate("param", AccountParamSchema), validate("query", LedgerPageQuerySchema), async (c) =>
    jsonText(c, await getLedgerPage(c.var.deps, statementCaller(c), c.req.valid("param").accountId, c.req.valid("query"))),
  )
  .post(
    "/:accountId/entries",
    describeRoute({ tag: "ledger", summary: "Record a deposit, withdrawal or adjustment", responses: { 201: { description: "The entry (amount signed).", schema: LedgerEntrySchema } } }),
    requireUser, validate("param", AccountParamSchema), validate("json", NewLedgerEntrySchema), async (c) =>
    c.json(await addLedgerEntry(c.var.deps, currentUser(c), c.req.valid("param").accountId, c.req.valid("json")), 201),
  )
  .delete(
    "/:accountId/entries/:entryId",
    describeRoute({ tag: "ledger", summary: "Delete a manual entry (opening and fill entries follow their source)", responses: { 204: { description: "Deleted." } } }),
    requireUser, validate("param", EntryParamSchema), async (c) => {
    const { accountId, entryId } = c.req.valid("param");
    await deleteLedgerEntry(c.var.deps, currentUser(c), accountId, entryId);
    return c.body(null, 204);
  });

export const ledgerGroup = { prefix: "/api/ledger", app: ledger } as const satisfies Group;
