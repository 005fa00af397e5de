// CSV files for import tests, in the generic preset's format.
import { expect } from "vitest";
import type { TestClient } from "./client.ts";
export const GENERIC_HEADER = "Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID";

/** Two round trips: AAPL (stock) and ESZ26 (future), naive and offset timestamps, CRLF line ends. */
export const GENERIC_SAMPLE = [
  GENERIC_HEADER,
  "2026-03-02T09:31:00,AAPL,BUY,100,170.50,1.00,E1",
  "2026-03-02T10:15:00,AAPL,SELL,100,172.25,1.00,E2",
  "2026-03-02T11:00:00-05:00,ESZ26,SLD,1,6000.25,2.25,E3",
  "2026-03-02T11:30:00-05:00,ESZ26,BOT,1,5990,2.25,E4",
].join("\r\n");

export const FIRST_STEPS_PASSWORD = "first steps password";

/**
 * A new user's first steps on a running server: sign up, create an account, import `csv` (preview and commit,
 * each checked for its status). The email signed up with (password FIRST_STEPS_PASSWORD), the account id, the
 * import id and the fills the commit wrote.
 */
export async function signUpAndImport(
  client: TestClient,
  account: Record<string, string> = {},
  csv: string = GENERIC_SAMPLE,
): Promise<{ email: string; accountId: string; importId: string; fillsCreated: number }> {
  const email = `first-steps-${crypto.randomUUID()}@example.com`;
  expect((await client.post("/api/auth/register", { email, password: FIRST_STEPS_PASSWORD })).status).toBe(201);
  const made = await client.post("/api/accounts", { name: "First steps", currency: "USD", ...account });
  expect(made.status).toBe(201);
  const accountId = ((await made.json()) as { id: string }).id;
  const form = new FormData();
  form.set("file", new Blob([csv]), "first-steps.csv");
  form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
  const preview = await client.request("/api/csv-import/preview", { method: "POST", body: form });
  expect(preview.status).toBe(201);
  const { importId } = (await preview.json()) as { importId: string };
  const commit = await client.post("/api/csv-import/commit", { importId });
  expect(commit.status).toBe(200);
  return { email, accountId, importId, fillsCreated: ((await commit.json()) as { fillsCreated: number }).fillsCreated };
}
