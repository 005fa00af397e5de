// The brokers Worker: the sync adapters (their parsers and signers, lib/sync/adapters) behind a service
// binding, so the accounts and jobs Workers that hold connections stay small (docs/architecture.md, "The
// brokers Worker"). Its `Brokers` entrypoint runs one broker call (lib/sync/runner.ts) with the configuration it
// is given. Reached only through bindings: no route, no variables.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { BrokerCall, BrokerConfig, BrokerResult } from "../../lib/ports/broker.ts";
import { runBrokerCall } from "../../lib/sync/runner.ts";

export class Brokers extends WorkerEntrypoint {
  run(call: BrokerCall, config: BrokerConfig): Promise<BrokerResult> {
    return runBrokerCall(call, { config, fetch: (...a) => fetch(...a), now: () => new Date() });
  }
}

/** Anything but RPC: 404. */
export default { fetch: () => new Response(null, { status: 404 }) };
