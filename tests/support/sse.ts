// Reading a text/event-stream response in tests: every `event:` + `data:` block, in order; comments
// (`: keepalive`) counted apart.
export type SseEvent = { event: string; data: Record<string, unknown> };

export function parseSse(text: string): { events: SseEvent[]; comments: number } {
  const events: SseEvent[] = [];
  let comments = 0;
  for (const block of text.split("\n\n")) {
    if (!block.trim()) continue;
    if (block.startsWith(":")) {
      comments += 1;
      continue;
    }
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
  }
  return { events, comments };
}

/** Reads a stream until `until` says stop (then cancels it, as a client that goes away). */
export async function readUntil(res: Response, until: (soFar: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if (until(text)) {
      await reader.cancel();
      return text;
    }
  }
}
