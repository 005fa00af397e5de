// A stand-in XMLHttpRequest for tests of the preview upload: records what was sent, reports upload
// progress, then answers with the status and body a test chooses.

export type FakeAnswer = { status: number; body: unknown; headers?: Record<string, string> };

export class FakeXhr {
  static sent: FakeXhr[] = [];
  static answers: (FakeAnswer | "network-error")[] = [];

  method = "";
  url = "";
  withCredentials = false;
  requestHeaders: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = "";
  private responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.requestHeaders[name] = value;
  }
  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name] ?? null;
  }
  abort() {
    queueMicrotask(() => this.onabort?.());
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
    const answer = FakeXhr.answers.shift() ?? { status: 500, body: { error: { code: "INTERNAL", message: "no answer queued", requestId: "x" } } };
    setTimeout(() => {
      if (answer === "network-error") {
        this.onerror?.();
        return;
      }
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
      this.status = answer.status;
      this.responseText = JSON.stringify(answer.body);
      this.responseHeaders = { "Content-Type": "application/json", "X-Request-Id": "req-xhr", ...answer.headers };
      this.onload?.();
    }, 0);
  }

  static reset() {
    FakeXhr.sent = [];
    FakeXhr.answers = [];
  }
  static factory = () => new FakeXhr() as unknown as XMLHttpRequest;
}
