// Credit packs (SPEC.md section 2, DESIGN.md section 9): what a checkout can sell. The client sends only a
// pack id; the price, the currency and the credits come from here alone. CREDIT_PACKS (JSON in the
// environment) replaces the built-in three; it is validated at start (a startup error names the fault).
import * as z from "zod/mini";

export type CreditPack = Readonly<{ id: string; name: string; credits: number; priceCents: number; currency: string }>;

/** 1 credit = 0.01 USD of marked-up provider cost; the larger packs carry a bonus. */
export const DEFAULT_CREDIT_PACKS: readonly CreditPack[] = Object.freeze([
  { id: "starter", name: "Starter: 500 credits", credits: 500, priceCents: 500, currency: "usd" },
  { id: "standard", name: "Standard: 1,050 credits", credits: 1050, priceCents: 1000, currency: "usd" },
  { id: "large", name: "Large: 2,750 credits", credits: 2750, priceCents: 2500, currency: "usd" },
]);

const PackSchema = z.strictObject({
  id: z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "must be 1 to 40 lowercase letters, digits, - or _")),
  name: z.string().check(z.minLength(1, "must not be empty"), z.maxLength(80, "must be at most 80 characters")),
  credits: z.int("must be a whole number").check(z.minimum(1, "must be at least 1"), z.maximum(1_000_000_000, "is too large")),
  // The payment provider's smallest charge is 50 cents in most currencies.
  priceCents: z.int("must be a whole number of cents").check(z.minimum(50, "must be at least 50"), z.maximum(100_000_000, "is too large")),
  currency: z.pipe(z.string().check(z.regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code")), z.transform((v: string) => v.toLowerCase())),
});

const PacksSchema = z.array(PackSchema).check(
  z.minLength(1, "must list at least one pack"),
  z.maxLength(20, "may list at most 20 packs"),
  z.refine((packs) => new Set(packs.map((p) => p.id)).size === packs.length, "has two packs with the same id"),
);

/** CREDIT_PACKS parsed, or the reason it cannot be (for the startup error). */
export function parseCreditPacks(raw: string): { packs: readonly CreditPack[] } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: 'must be JSON: an array of {"id", "name", "credits", "priceCents", "currency"}' };
  }
  const parsed = PacksSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `[${issue.path.join("].")}`.replace(/\]\.(\d)/g, "][$1") : "";
    return { error: `${where ? `${where.replace(/^\[(\d+)\]\./, "pack $1: ").replace(/^\[(\d+)\]$/, "pack $1")} ` : ""}${issue.message}` };
  }
  return { packs: Object.freeze(parsed.data.map((p) => Object.freeze(p))) };
}
