// The seam between a turn (lib/advisor/turns.ts: the database, the tools, metering) and the model provider
// call made through the AI SDK (lib/advisor/run-model.ts). Plain data both ways, so the call can run in this
// process (Node, `wrangler dev`) or in a model Worker of its own behind a service binding (the deployed
// advisor Worker; docs/architecture.md, "The advisor Worker's size"), with the SDK's own tool loop calling
// back for each tool. Nothing here imports the SDK.
import type { CallTool, ModelCall, ModelPart, ModelRunner, ProviderFailure, ToolAnswer } from "../ports/model.ts";

export type { CallTool, ModelCall, ModelPart, ModelRunner, ProviderFailure, ToolAnswer };

/** A provider failure as the code and words the trader sees. */
export function providerFailure(err: unknown): ProviderFailure {
  const e = err as { statusCode?: number; message?: string; responseBody?: string; lastError?: unknown };
  if (e?.lastError) return providerFailure(e.lastError);
  const status = e?.statusCode;
  const text = `${e?.message ?? ""} ${e?.responseBody ?? ""}`;
  if (status === 401 || status === 403) {
    return { code: "PROVIDER_KEY_INVALID", message: "The provider refused your key. Replace it in Settings > Advisor keys.", keyRefused: true };
  }
  if (status === 429) return { code: "PROVIDER_RATE_LIMITED", message: "The provider is limiting requests on your key. Wait a minute and try again." };
  if ((status === 400 || status === 413) && /context|too long|maximum|tokens/i.test(text)) {
    return { code: "CONTEXT_TOO_LONG", message: "The conversation is too long for this model. Start a new conversation or pick a model with a larger context." };
  }
  if (status === undefined || status >= 500) return { code: "PROVIDER_UNAVAILABLE", message: "The provider did not answer. Try again in a moment." };
  return { code: "PROVIDER_ERROR", message: `The provider could not answer (HTTP ${status}).` };
}

/** Parts as newline-delimited JSON bytes (what crosses a service binding); cancelling the stream aborts the call. */
export function partsToStream(run: (signal: AbortSignal) => AsyncIterable<ModelPart>): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<ModelPart> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      iterator ??= run(abort.signal)[Symbol.asyncIterator]();
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
    },
    async cancel() {
      abort.abort();
      await iterator?.return?.();
    },
  });
}

/** The parts of a stream made by partsToStream; aborting `signal` cancels it. */
export async function* partsFromStream(stream: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncIterable<ModelPart> {
  const reader = stream.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", cancel);
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += value;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line) yield JSON.parse(line) as ModelPart;
      }
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}
