// The Node process's broker calls (lib/sync/runner.ts), loaded on the first call rather than at start: the
// adapters carry IBKR's XML parser and jose, which the server's start-up need not parse and run.
import type { BrokerRunner } from "../ports/broker.ts";

export function lazyBrokers(fetcher: typeof fetch): BrokerRunner {
  let runner: Promise<BrokerRunner> | undefined;
  return async (call, config) => {
    runner ??= import("./runner.ts").then((m) => m.inProcessBrokers(fetcher));
    return (await runner)(call, config);
  };
}
