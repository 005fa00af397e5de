// A model Worker: one provider's AI SDK package behind a service binding, so the advisor Worker that calls it
// stays small (docs/architecture.md, "The advisor Worker's size"). Its `Model` entrypoint streams one model call
// (lib/advisor/run-model.ts) as newline-delimited JSON parts; the tools are called back through the advisor's
// `callTool` stub, kept (dup) for as long as the stream runs. Reached only through bindings: no route.
import { WorkerEntrypoint } from "cloudflare:workers";
import { partsToStream, type CallTool, type ModelCall } from "../../lib/advisor/model.ts";
import { runModel, type ModelFactory } from "../../lib/advisor/run-model.ts";

type Stub<T> = T & { dup?: () => Stub<T>; [Symbol.dispose]?: () => void };

export function modelEntrypoint(factory: ModelFactory) {
  const run = runModel(factory);
  return class Model extends WorkerEntrypoint {
    stream(call: ModelCall, callTool: Stub<CallTool>): ReadableStream<Uint8Array> {
      const kept = callTool.dup?.() ?? callTool;
      return partsToStream(async function* (signal) {
        try {
          yield* run(call, kept, signal);
        } finally {
          kept[Symbol.dispose]?.();
        }
      });
    }
  };
}

/** Anything but RPC: 404. */
export const notFound = { fetch: () => new Response(null, { status: 404 }) };
