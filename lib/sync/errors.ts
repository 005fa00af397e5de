// A provider's refusals and silences, as the sync acts on them (lib/sync/sync.ts), in a module of their own:
// the sync reads them without loading any provider's client until a connection is saved or pulled.

import type { SyncProblem } from "../ports/broker.ts";

export type { SyncProblem };

/** A refusal of the provider (its code and the trader's words for it), or its silence (code null). */
export class SyncError extends Error {
  override name = "SyncError";
  readonly code: string | null;
  readonly problem: SyncProblem;
  /** The field of the PUT the refusal names (a 400 names it), for "credentials" and "settings". */
  readonly field: string | null;
  constructor(code: string | null, problem: SyncProblem, message: string, field: string | null = null) {
    super(message);
    this.code = code;
    this.problem = problem;
    this.field = field;
  }
}

/** The connection is wrong until the trader mends it: the schedule leaves it alone and the trader is told once. */
export const breaksConnection = (err: SyncError) => err.problem === "credentials" || err.problem === "settings" || err.problem === "reauth";
