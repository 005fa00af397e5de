import { describe, expect, it } from "vitest";
import { FEEDBACK_MAX_LENGTH, scrubFeedbackText } from "./scrub.ts";

describe("scrubFeedbackText", () => {
  it.each([
    ["an email address", "write to jane.doe+journal@example.co.uk please", "write to [email] please", "jane.doe"],
    ["a bearer token", "curl -H 'Authorization: Bearer eyJabc.def-123_xyz'", "Authorization: Bearer [redacted]'", "eyJabc"],
    ["an OpenAI-style key", "my key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t fails", "my key [redacted] fails", "sk-proj"],
    ["a Stripe secret key", "sk_live_51HxYzAbCdEfGhIjKlMnOp", "[redacted]", "sk_live"],
    ["an AWS access key id", "AKIAIOSFODNN7EXAMPLE is wrong", "[redacted] is wrong", "AKIAIOSFODNN7"],
    ["a GitHub token", "ghp_1234567890abcdefghijklmnopqrstuv", "[redacted]", "ghp_"],
    ["a key=value secret", "api_key=hunter2hunter2 and client_secret: s3cr3t!", "api_key=[redacted] and client_secret: [redacted]", "hunter2"],
    ["an env-style key", "ENCRYPTION_KEY=abc", "ENCRYPTION_KEY=[redacted]", "=abc"],
    ["a password", "password: correct-horse", "password: [redacted]", "correct-horse"],
    ["a token in a link", "https://app.example.com/reset?token=AbC123xyz&x=1", "?token=[redacted]&x=1", "AbC123xyz"],
    ["credentials in a URL", "postgres://admin:pa55word@db.internal:5432/journal", "postgres://[redacted]@db.internal", "pa55word"],
    ["a JWT", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_part-123", "[redacted]", "eyJhbGci"],
    ["a long hex string", `hash ${"a1".repeat(20)} end`, "hash [redacted] end", "a1a1a1"],
    ["a base64 secret", "value dGhpc0lzQVNlY3JldEtleTEyMzQ1Njc4OTA= end", "value [redacted] end", "dGhpc0lz"],
  ])("replaces %s", (_name, input, expected, leaked) => {
    const out = scrubFeedbackText(input);
    expect(out).toContain(expected);
    expect(out).not.toContain(leaked);
  });

  it.each([
    ["plain prose", "The import page is confusing when a fill has no fees."],
    ["prices, quantities and percentages", "Bought 150 AAPL at 187.25, sold at 190.10 (+1.52%) on 2026-11-05T14:30:00Z."],
    ["tickers and option symbols", "SPY 450C 12/20 and BRK.B and ES=F"],
    ["a trade id", "Trade 3fa85f64-5717-4562-b3fc-2c963f66afa6 shows the wrong P&L"],
    ["a page URL", "See https://journal.example.com/trades?page=2&sort=pnl"],
    ["long ordinary words", "internationalization counterintuitively-overcomplicated"],
    ["a mention of a key without one", "Where do I paste my API key? The token field is missing."],
    ["an at sign that is not an email", "Filled @ 12.50, me @ home"],
  ])("keeps %s", (_name, input) => {
    expect(scrubFeedbackText(input)).toBe(input);
  });

  it("trims and caps the length", () => {
    expect(scrubFeedbackText("  hi  ")).toBe("hi");
    expect(scrubFeedbackText("word ".repeat(1000))).toHaveLength(FEEDBACK_MAX_LENGTH);
  });
});
