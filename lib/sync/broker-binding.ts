// The broker calls through the brokers Worker (functions/workers/brokers.ts), reached by the BROKERS service
// binding with Workers RPC: the call and the adapters' configuration go as data, the result comes back as data
// (lib/sync/runner.ts). The Workers that hold connections (accounts, jobs) so carry no adapter.
import type { BrokerCall, BrokerConfig, BrokerResult, BrokerRunner } from "../ports/broker.ts";

/** What the brokers Worker's `Brokers` entrypoint offers over RPC. */
export type BrokerService = { run(call: BrokerCall, config: BrokerConfig): Promise<BrokerResult> };

export function boundBrokers(env: Record<string, unknown>): BrokerRunner {
  return async (call, config) => {
    const service = env.BROKERS as BrokerService | undefined;
    if (!service) throw new Error("the BROKERS service binding is missing");
    return service.run(call, config);
  };
}
