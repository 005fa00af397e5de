// A server-sent event stream (text/event-stream) for the advisor's turns: `event: NAME` + `data: JSON` per
// event, a `: keepalive` comment every `keepaliveMs`, and an abort signal that fires when the client goes away
// (the response body is cancelled or the request aborted), so the work behind the stream can stop.
export type SseWriter = {
  send(event: string, data: unknown): Promise<void>;
  /** Aborts when the client is gone. */
  readonly gone: AbortSignal;
};

export function sseResponse(request: Request, keepaliveMs: number, run: (writer: SseWriter) => Promise<void>): { response: Response; finished: Promise<void> } {
  const encoder = new TextEncoder();
  const gone = new AbortController();
  request.signal?.addEventListener("abort", () => gone.abort());
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      gone.abort();
    },
  });
  const write = (chunk: string) => {
    if (gone.signal.aborted) throw new Error("the client is gone");
    controller.enqueue(encoder.encode(chunk));
  };
  const keepalive = setInterval(() => {
    try {
      write(": keepalive\n\n");
    } catch {
      // gone: the run notices through the signal
    }
  }, keepaliveMs);
  const finished = run({ send: async (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`), gone: gone.signal }).finally(() => {
    clearInterval(keepalive);
    try {
      controller.close();
    } catch {
      // already closed or cancelled
    }
  });
  return {
    response: new Response(body, {
      status: 200,
      // no-transform and X-Accel-Buffering keep proxies (the web container's nginx) from buffering events.
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" },
    }),
    finished,
  };
}
