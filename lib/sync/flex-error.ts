// The Flex Web Service's refusals (lib/sync/ibkr-flex.ts), in a module of their own: the sync reads them
// without loading the service's client (and its XML parser) until a connection is saved or pulled.

/** What the service's error codes mean for the connection: the token or the query is wrong, or try later. */
export type FlexProblem = "token" | "query" | "retry" | "unavailable";

/** A refusal of the service (its code and words), or its silence (code null: unreachable, not XML). */
export class FlexError extends Error {
  override name = "FlexError";
  readonly code: string | null;
  readonly problem: FlexProblem;
  constructor(code: string | null, problem: FlexProblem, message: string) {
    super(message);
    this.code = code;
    this.problem = problem;
  }
}
