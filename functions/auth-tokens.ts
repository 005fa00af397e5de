// Personal access tokens: made (with the password and a code re-checked), listed, revoked (docs/auth.md). Mounted
// in functions/auth.ts under /api/auth.
import { createToken, deleteToken, listTokens, NewTokenSchema, TokenIdParamSchema } from "../lib/auth/tokens.ts";
import { AppError } from "../lib/errors.ts";
import { currentUser, passwordCheckLimits, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate } from "../lib/http/index.ts";
import { NewTokenResultSchema, TokenListSchema } from "../lib/auth/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";

export const tokenRoutes = createRouter()
  .post(
    "/tokens",
    describeRoute({
      tag: "auth",
      summary: "Make a personal access token for a script or a trading platform (the token is shown this once)",
      description:
        "Scopes: `read` (every GET outside auth, keys, billing, advisor, archive and admin), `import` (CSV import: preview, commit, discard, undo), `fills:write` (fills: add, correct, delete). Up to 20 tokens; `expiresInDays` 1 to 365 (default 90). Takes your `password`, and a `code` (authenticator or backup) when two-factor sign-in is on: wrong or missing, 400 naming it and no token made. The owner is mailed when a token is made; a password change, a reset and signing out everywhere revoke every token.",
      responses: { 201: { description: "The token; only its hash is kept.", schema: NewTokenResultSchema } },
      errors: ["VALIDATION_ERROR", "CONFLICT"],
    }),
    requireUser,
    // A body that cannot be a token is refused before the password budget counts it: it checks no password.
    validate("json", NewTokenSchema),
    ...passwordCheckLimits,
    async (c) => c.json(await createToken(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get("/tokens", describeRoute({ tag: "auth", summary: "Your personal access tokens (never the tokens themselves), newest first", responses: { 200: { description: "The tokens.", schema: TokenListSchema } } }), requireUser, async (c) =>
    c.json({ tokens: await listTokens(c.var.deps, currentUser(c).id) }),
  )
  .delete("/tokens/:id", describeRoute({ tag: "auth", summary: "Revoke a personal access token (at once)", responses: { 204: { description: "Revoked." } } }), requireUser, validate("param", TokenIdParamSchema), async (c) => {
    if (!(await deleteToken(c.var.deps, currentUser(c).id, c.req.valid("param").id))) throw new AppError("NOT_FOUND", "No such token.");
    return c.body(null, 204);
  });
