// A provider's refusals and silences, as the sync acts on them (lib/sync/sync.ts), in a module of their own:
// the sync reads them without loading any provider's client until a connection is saved or pulled.

/**
 * What a provider's answer means for the connection:
 * - "credentials": the key, token or password is wrong, expired or revoked (the connection is broken until the
 *   trader saves new ones; the schedule skips it);
 * - "settings": something else the trader gave is wrong (IBKR's query id);
 * - "reauth": an OAuth grant was refused on refresh (the trader signs in at the broker again);
 * - "retry": the provider is busy, throttled or down, or answered something unreadable: a later run may work;
 * - "unavailable": the provider cannot give what was asked (a statement not available for the period).
 */
export type SyncProblem = "credentials" | "settings" | "reauth" | "retry" | "unavailable";

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
