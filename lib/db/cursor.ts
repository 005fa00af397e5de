// Keyset paging cursors: the (timestamp, id) of a page's last row, opaque to the client.
import { AppError } from "../errors.ts";

export type Cursor = { at: string; id: string };

export const encodeCursor = (c: Cursor) => btoa(JSON.stringify(c)).replace(/=+$/, "");

const INSTANT = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The cursor a list gave, or 400 VALIDATION_ERROR on `cursor`. Only what a list writes passes (an ISO instant
 * in UTC within 1900-9999, a uuid): what Date.parse or a looser pattern lets through ("1", 36 dashes) would
 * reach Postgres and fail there.
 */
export function decodeCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(atob(raw)) as Partial<Cursor> | null;
    const year = typeof c?.at === "string" ? INSTANT.exec(c.at)?.[1] : undefined;
    // A real instant: Date rolls "2024-02-30" over to March 1st, Postgres refuses it, so the round trip must hold.
    const real = year && Number(year) >= 1900 && new Date(c!.at!).toISOString().slice(0, 19) === c!.at!.slice(0, 19);
    if (real && typeof c!.id === "string" && UUID.test(c!.id)) return { at: c!.at!, id: c!.id };
  } catch {
    // falls through
  }
  throw new AppError("VALIDATION_ERROR", "The cursor is not one this list gave.", { fields: [{ path: "cursor", message: "is not a valid cursor" }] });
}
