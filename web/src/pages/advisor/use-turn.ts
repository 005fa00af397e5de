// One advisor turn from the browser: POST the question, read the answer's server-sent events as they arrive
// (eventsource-parser), and keep what the page shows: the text so far, the tools the advisor used, the
// credits, and how the turn ended. Stop aborts the request; the server then keeps the partial answer as
// incomplete and charges only what was used (DESIGN.md section 9).
import { EventSourceParserStream } from "eventsource-parser/stream";
import { useCallback, useRef, useState } from "react";
import { apiFetch } from "../../api/client.ts";
import { ApiError, errorFromResponse } from "../../api/errors.ts";

export type ToolActivity = { id: string; name: string; summary: string | null; ok: boolean | null };
export type TurnUsage = { inputTokens: number; outputTokens: number; credits?: number };

export type TurnState = {
  question: string;
  /** The answer's id (the start event's messageId), once known. */
  messageId: string | null;
  text: string;
  tools: ToolActivity[];
  usage: TurnUsage | null;
  reservedCredits: number | null;
  phase: "asking" | "streaming" | "done" | "stopped" | "failed";
  /** Why it ended short: an event's code and words, or the refusal's ApiError. */
  error: { code: string; message: string } | null;
  refusal: ApiError | null;
};

type Handlers = { onFinished?: () => void };

export function useTurn({ onFinished }: Handlers = {}) {
  const [turn, setTurn] = useState<TurnState | null>(null);
  const abort = useRef<AbortController | null>(null);

  const update = (patch: (t: TurnState) => Partial<TurnState>) => setTurn((t) => (t ? { ...t, ...patch(t) } : t));

  const ask = useCallback(
    async (question: string, conversationId: string) => {
      const controller = new AbortController();
      abort.current = controller;
      setTurn({ question, messageId: null, text: "", tools: [], usage: null, reservedCredits: null, phase: "asking", error: null, refusal: null });
      try {
        const res = await apiFetch(`/api/advisor/conversations/${conversationId}/turns`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
          body: JSON.stringify({ clientMessageId: crypto.randomUUID(), text: question }),
          signal: controller.signal,
        });
        if (!res.ok || !res.body) {
          const refusal = await errorFromResponse(res);
          update(() => ({ phase: "failed", refusal }));
          return;
        }
        update(() => ({ phase: "streaming" }));
        const reader = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
        let ended = false;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const data = JSON.parse(value.data) as Record<string, unknown>;
          switch (value.event) {
            case "start":
              update(() => ({ messageId: String(data.messageId), reservedCredits: typeof data.reservedCredits === "number" ? data.reservedCredits : null }));
              break;
            case "delta":
              update((t) => ({ text: t.text + String(data.text ?? "") }));
              break;
            case "tool_call":
              update((t) => ({ tools: [...t.tools, { id: String(data.id), name: String(data.name), summary: null, ok: null }] }));
              break;
            case "tool_result":
              update((t) => ({ tools: t.tools.map((a) => (a.id === data.id ? { ...a, summary: String(data.summary), ok: data.ok === true } : a)) }));
              break;
            case "usage":
              update(() => ({ usage: data as TurnUsage }));
              break;
            case "done":
              ended = true;
              update(() => ({ phase: "done", error: data.finishReason === "credit_limit" ? { code: "credit_limit", message: "The answer stopped at the credits held for it." } : null }));
              break;
            case "error":
              ended = true;
              update(() => ({ phase: "failed", error: { code: String(data.code), message: String(data.message) } }));
              break;
            default:
              break;
          }
        }
        if (!ended) update(() => ({ phase: "failed", error: { code: "DISCONNECTED", message: "The connection ended before the answer did." } }));
      } catch (err) {
        if (controller.signal.aborted) update(() => ({ phase: "stopped" }));
        else update(() => ({ phase: "failed", refusal: err instanceof ApiError ? err : null, error: err instanceof ApiError ? null : { code: "DISCONNECTED", message: "The connection to the server was lost." } }));
      } finally {
        abort.current = null;
        onFinished?.();
      }
    },
    [onFinished],
  );

  const stop = useCallback(() => abort.current?.abort(), []);
  const clear = useCallback(() => setTurn(null), []);
  return { turn, ask, stop, clear, busy: turn?.phase === "asking" || turn?.phase === "streaming" };
}
