// Form 8949 as CSV (docs/tax.md): apart from lib/tax/tax.ts so that what reads the lots without writing the
// file (the digest's wash watch, in the digest Worker) does not carry the CSV writer.
import Papa from "papaparse";
import type { AuthUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { description, formRows, fromCents, usDate, yearOf, type TaxQuery } from "./tax.ts";

/** GET /api/tax/8949.csv: the rows as CSV, Part I then Part II, streamed in chunks of 1,000. */
export async function form8949Csv(deps: Pick<Deps, "db">, user: AuthUser, query: TaxQuery): Promise<ReadableStream<Uint8Array>> {
  const y = await yearOf(deps, user, query);
  const rows = formRows(y.rows);
  const fields = ["part", "box", "description", "dateAcquired", "dateSold", "proceeds", "costBasis", "code", "adjustment", "gainOrLoss"];
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i === 0 && rows.length === 0) controller.enqueue(encoder.encode(`${fields.join(",")}\r\n`));
      if (i >= rows.length) return controller.close();
      const chunk = rows.slice(i, i + 1000).map((r) => [
        r.part,
        r.box,
        description(r.d),
        usDate(r.d.acquiredAt),
        usDate(r.d.soldAt),
        fromCents(r.proceeds),
        fromCents(r.cost),
        r.adjustment !== 0n ? "W" : "",
        r.adjustment !== 0n ? fromCents(r.adjustment) : "",
        fromCents(r.gain),
      ]);
      controller.enqueue(encoder.encode(`${Papa.unparse(i === 0 ? { fields, data: chunk } : chunk, { newline: "\r\n" })}\r\n`));
      i += 1000;
    },
  });
}
