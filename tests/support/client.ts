// A tiny cookie-keeping client over `app.request` (in-process) or a base URL (a real server).
type Requester = (path: string, init: RequestInit) => Promise<Response>;

export class TestClient {
  readonly cookies = new Map<string, string>();
  private readonly send: Requester;
  headers: Record<string, string> = {};

  constructor(target: string | { request: (path: string, init: RequestInit) => Response | Promise<Response> }) {
    this.send =
      typeof target === "string"
        ? (path, init) => fetch(`${target}${path}`, init)
        : async (path, init) => target.request(path, init);
  }

  async request(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [k, v] of Object.entries(this.headers)) if (!headers.has(k)) headers.set(k, v);
    if (this.cookies.size) headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(init.json);
    }
    const res = await this.send(path, { ...init, headers, body });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === "" || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get(path: string, init: RequestInit = {}) {
    return this.request(path, { ...init, method: "GET" });
  }
  post(path: string, json?: unknown, init: RequestInit = {}) {
    return this.request(path, { ...init, method: "POST", ...(json === undefined ? {} : { json }) });
  }
  delete(path: string, init: RequestInit = {}) {
    return this.request(path, { ...init, method: "DELETE" });
  }

  /** A copy with the same cookies (another tab of the same browser). */
  clone(): TestClient {
    const copy = Object.create(TestClient.prototype) as TestClient;
    Object.assign(copy, { send: this.send, headers: { ...this.headers }, cookies: new Map(this.cookies) });
    return copy;
  }
}

let counter = 0;
export function uniqueEmail(tag = "user"): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

export const PASSWORD = "correct horse battery staple";
