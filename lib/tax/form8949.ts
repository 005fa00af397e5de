// Form 8949 as CSV (docs/tax.md): apart from lib/tax/tax.ts so that what reads the lots without writing the
// file (the digest's wash watch, in the digest Worker) does not carry the CSV writer.
import Papa from "papaparse";
import type { AuthUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { BATCH_FILLS, description, formRows, fromCents, refuseIncomplete, usDate, yearInBatches, type TaxQuery } from "./tax.ts";

const FIELDS = ["part", "box", "description", "dateAcquired", "dateSold", "proceeds", "costBasis", "code", "adjustment", "gainOrLoss"];

const csvLines = (rows: ReturnType<typeof formRows>) =>
  Papa.unparse(
    rows.map((r) => [
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
    ]),
    { newline: "\r\n" },
  );

/**
 * GET /api/tax/8949.csv: the header, Part I's rows, then Part II's. The lots are computed a batch of underlyings
 * at a time as the reader takes the file (docs/tax.md, "Performance"): each batch's Part I rows are written at
 * once, its Part II rows (long-term: few in an active trader's year) kept as text until the end. Within a part,
 * rows come by underlying, in order of sale.
 */
export async function form8949Csv(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user: AuthUser, query: TaxQuery): Promise<ReadableStream<Uint8Array>> {
  const { currency, batches, missingRates } = await yearInBatches(deps, user, query, BATCH_FILLS.small);
  refuseIncomplete(currency, missingRates());
  const encoder = new TextEncoder();
  const partII: string[] = [];
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        return controller.enqueue(encoder.encode(`${FIELDS.join(",")}\r\n`));
      }
      for (;;) {
        const next = await batches.next();
        if (next.done) {
          if (partII.length) controller.enqueue(encoder.encode(`${partII.join("\r\n")}\r\n`));
          return controller.close();
        }
        const rows = formRows(next.value.rows);
        const long = rows.filter((r) => r.part === "II");
        if (long.length) partII.push(csvLines(long));
        const short = rows.filter((r) => r.part === "I");
        if (short.length) return controller.enqueue(encoder.encode(`${csvLines(short)}\r\n`));
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
