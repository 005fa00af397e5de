// Brokerages: a user's own labels for where accounts are held. Deleting one keeps its accounts (their
// brokerage_id becomes null through the foreign key). Another user's brokerage is answered like a
// missing one.
import { and, asc, eq, sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { pgError, UNIQUE_VIOLATION } from "../db/errors.ts";
import { brokerages } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type { NewBrokerage } from "./schema.ts";

export type Brokerage = { id: string; name: string; createdAt: string; updatedAt: string };

const columns = { id: brokerages.id, name: brokerages.name, createdAt: brokerages.createdAt, updatedAt: brokerages.updatedAt };

const notFound = () => new AppError("NOT_FOUND", "No such brokerage.");

function toBrokerage(row: { id: string; name: string; createdAt: Date; updatedAt: Date }): Brokerage {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** Runs a write that may hit the per-user name index and turns that into 409 CONFLICT. */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === UNIQUE_VIOLATION && pg.constraint === "brokerages_user_name_idx") {
      throw new AppError("CONFLICT", "You already have a brokerage with this name.");
    }
    throw err;
  }
}

const owned = (user: AuthUser, id: string) => and(eq(brokerages.id, id), eq(brokerages.userId, user.id));

export async function createBrokerage(deps: Pick<Deps, "db">, user: AuthUser, input: NewBrokerage): Promise<Brokerage> {
  const [row] = await uniqueName(() => deps.db.insert(brokerages).values({ userId: user.id, name: input.name }).returning(columns));
  return toBrokerage(row!);
}

/** The user's brokerages by name (case-insensitive). */
export async function listBrokerages(deps: Pick<Deps, "db">, user: AuthUser): Promise<Brokerage[]> {
  const rows = await deps.db
    .select(columns)
    .from(brokerages)
    .where(eq(brokerages.userId, user.id))
    .orderBy(asc(sql`lower(${brokerages.name})`), asc(brokerages.name), asc(brokerages.id));
  return rows.map(toBrokerage);
}

export async function getBrokerage(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<Brokerage> {
  const [row] = await deps.db.select(columns).from(brokerages).where(owned(user, id));
  if (!row) throw notFound();
  return toBrokerage(row);
}

export async function renameBrokerage(deps: Pick<Deps, "db">, user: AuthUser, id: string, input: NewBrokerage): Promise<Brokerage> {
  const [row] = await uniqueName(() =>
    deps.db.update(brokerages).set({ name: input.name, updatedAt: sql`now()` }).where(owned(user, id)).returning(columns),
  );
  if (!row) throw notFound();
  return toBrokerage(row);
}

/** Its accounts stay, without a brokerage (ON DELETE SET NULL). */
export async function deleteBrokerage(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<void> {
  const [row] = await deps.db.delete(brokerages).where(owned(user, id)).returning({ id: brokerages.id });
  if (!row) throw notFound();
}
