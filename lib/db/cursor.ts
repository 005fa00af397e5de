// Keyset paging cursors: the (timestamp, id) of a page's last row, opaque to the client.
import { AppError } from "../errors.ts";

export type Cursor = { at: string; id: string };

export const encodeCursor = (c: Cursor) => btoa(JSON.stringify(c)).replace(/=+$/, "");

/** The cursor a list gave, or 400 VALIDATION_ERROR on `cursor`. */
export function decodeCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(atob(raw)) as Cursor;
    if (typeof c.at === "string" && !Number.isNaN(Date.parse(c.at)) && /^[0-9a-f-]{36}$/.test(c.id)) return c;
  } catch {
    // falls through
  }
  throw new AppError("VALIDATION_ERROR", "The cursor is not one this list gave.", { fields: [{ path: "cursor", message: "is not a valid cursor" }] });
}
