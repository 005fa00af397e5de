// An in-process SMTP server (smtp-server) that records what it receives, for sending real mail through
// nodemailer in tests. TLS modes use a self-signed certificate made with openssl at test time. mailparser
// is not available here, so the small MIME reader below decodes what our messages use: folded headers,
// RFC 2047 encoded-words, quoted-printable and base64 bodies, multipart/alternative.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

export type SmtpTlsMode = "none" | "starttls" | "implicit";

export type ReceivedMail = {
  /** The From header, decoded: `{name, address}` as a reader's mail client would show it. */
  from: { name: string; address: string };
  /** The From header as received (encoded-words still encoded). */
  fromHeader: string;
  /** Envelope sender (MAIL FROM). */
  envelopeFrom: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** Decoded Subject header. */
  subject: string;
  /** The text/plain body, transfer encoding and charset decoded, line ends as \n. */
  text: string;
  /** The text/html body when there is one, decoded the same way. */
  html: string | undefined;
  /** Unfolded header values by lower-case name (first occurrence). */
  headers: Record<string, string>;
  /** The whole message as received (after SMTP dot-unstuffing). */
  raw: string;
  /** Whether the session that delivered it was encrypted (implicit TLS or after STARTTLS). */
  secure: boolean;
  /** The user the session authenticated as, if any. */
  authUser: string | undefined;
};

export type SmtpTestServer = {
  port: number;
  messages: ReceivedMail[];
  /** Authentication attempts that failed, by user name (never the password). */
  failedLogins: string[];
  waitFor(predicate?: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

export type SmtpServerOptions = {
  /**
   * none: STARTTLS is not offered. starttls: plain connection that offers STARTTLS.
   * implicit: TLS from the first byte.
   */
  tls: SmtpTlsMode;
  /** When set, the server requires AUTH (PLAIN/LOGIN) with exactly these credentials. */
  auth?: { user: string; pass: string };
  /** Recipients refused at RCPT TO with 550 (a mailbox that does not exist: a bounce at send). */
  refuse?: (address: string) => boolean;
};

const run = promisify(execFile);
let certificate: Promise<{ key: string; cert: string }> | undefined;

/** A self-signed certificate for CN=localhost, made once per test file. */
export function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "journal-smtp-cert-"));
    try {
      const key = join(dir, "key.pem");
      const cert = join(dir, "cert.pem");
      await run("openssl", [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
        "-subj", "/CN=localhost", "-days", "1", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ]);
      return { key: await readFile(key, "utf8"), cert: await readFile(cert, "utf8") };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return certificate;
}

export async function startSmtpServer(options: SmtpServerOptions): Promise<SmtpTestServer> {
  const messages: ReceivedMail[] = [];
  const failedLogins: string[] = [];
  const waiters = new Set<() => void>();
  const tlsOptions: Partial<SMTPServerOptions> = options.tls === "none" ? {} : await selfSignedCertificate();
  const disabled = [...(options.tls === "none" ? ["STARTTLS"] : []), ...(options.auth ? [] : ["AUTH"])];

  const server = new SMTPServer({
    ...tlsOptions,
    secure: options.tls === "implicit",
    name: "localhost",
    logger: false,
    disabledCommands: disabled,
    disableReverseLookup: true,
    authOptional: !options.auth,
    // Without TLS there is nothing to upgrade to; let a `none` server still test credentials.
    allowInsecureAuth: options.tls === "none",
    closeTimeout: 1_000,
    size: 1024 * 1024,
    onAuth(auth, _session, callback) {
      const ok = options.auth && auth.username === options.auth.user && auth.password === options.auth.pass;
      if (ok) return callback(null, { user: auth.username });
      failedLogins.push(auth.username ?? "");
      const err = Object.assign(new Error("Invalid username or password"), { responseCode: 535 });
      callback(err);
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address)) return callback(Object.assign(new Error("5.1.1 No such user here"), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", callback);
      stream.on("end", () => {
        try {
          const envelope = session.envelope;
          messages.push(
            parseMessage(Buffer.concat(chunks), {
              envelopeFrom: envelope.mailFrom ? envelope.mailFrom.address : "",
              to: envelope.rcptTo.map((r) => r.address),
              secure: session.secure,
              authUser: typeof session.user === "string" ? session.user : undefined,
            }),
          );
          for (const wake of waiters) wake();
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });
  server.on("error", () => {}); // client resets in failure tests are expected

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  const waitFor = (predicate: (m: ReceivedMail) => boolean = () => true, timeoutMs = 5_000) =>
    new Promise<ReceivedMail>((resolve, reject) => {
      const check = () => {
        const found = messages.find(predicate);
        if (!found) return false;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms (${messages.length} received)`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { port, messages, failedLogins, waitFor, close };
}

// ---------------------------------------------------------------------------------------------------
// MIME reading (RFC 5322, 2045-2047), enough for test assertions.

type Part = { headers: Array<[string, string]>; body: Buffer };

export function parseMessage(
  raw: Buffer,
  meta: { envelopeFrom: string; to: string[]; secure: boolean; authUser: string | undefined },
): ReceivedMail {
  const root = splitPart(raw);
  const headers: Record<string, string> = {};
  for (const [k, v] of root.headers) headers[k] ??= v;
  const fromHeader = headers["from"] ?? "";
  const texts = collectTextParts(root);
  return {
    from: parseMailbox(fromHeader),
    fromHeader,
    envelopeFrom: meta.envelopeFrom,
    to: meta.to,
    subject: decodeEncodedWords(headers["subject"] ?? ""),
    text: texts.plain ?? "",
    html: texts.html,
    headers,
    raw: raw.toString("utf8"),
    secure: meta.secure,
    authUser: meta.authUser,
  };
}

function splitPart(buf: Buffer): Part {
  const s = buf.toString("latin1"); // one char per byte, so offsets map back onto the buffer
  const m = /\r?\n\r?\n/.exec(s);
  const headerText = m ? s.slice(0, m.index) : s;
  const body = m ? buf.subarray(m.index + m[0].length) : Buffer.alloc(0);
  // Unfold: a line break followed by white space continues the previous header line.
  const unfolded = headerText.replace(/\r?\n(?=[ \t])/g, "");
  const headers: Array<[string, string]> = [];
  for (const line of unfolded.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    headers.push([line.slice(0, i).trim().toLowerCase(), Buffer.from(line.slice(i + 1).trim(), "latin1").toString("utf8")]);
  }
  return { headers, body };
}

function header(part: Part, name: string): string | undefined {
  return part.headers.find(([k]) => k === name)?.[1];
}

/** `text/plain; charset="utf-8"` -> { type: "text/plain", params: { charset: "utf-8" } } */
function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  if (!value) return { type: "text/plain", params: { charset: "us-ascii" } };
  const [type = "", ...rest] = value.split(";");
  const params: Record<string, string> = {};
  for (const m of rest.join(";").matchAll(/([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g)) {
    const v = m[2]!;
    params[m[1]!.toLowerCase()] = v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, "$1") : v;
  }
  return { type: type.trim().toLowerCase(), params };
}

function collectTextParts(part: Part, out: { plain?: string; html?: string } = {}): { plain?: string; html?: string } {
  const ct = parseContentType(header(part, "content-type"));
  if (ct.type.startsWith("multipart/")) {
    const boundary = ct.params["boundary"];
    if (!boundary) return out;
    for (const child of splitMultipart(part.body, boundary)) collectTextParts(splitPart(child), out);
    return out;
  }
  if (ct.type !== "text/plain" && ct.type !== "text/html") return out;
  if (/attachment/i.test(header(part, "content-disposition") ?? "")) return out;
  const bytes = decodeTransfer(part.body, header(part, "content-transfer-encoding"));
  const text = decodeCharset(bytes, ct.params["charset"] ?? "us-ascii").replace(/\r\n/g, "\n");
  if (ct.type === "text/plain") out.plain ??= text;
  else out.html ??= text;
  return out;
}

function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const s = body.toString("latin1");
  const delimiter = `--${boundary}`;
  const parts: Buffer[] = [];
  let start = -1;
  let offset = 0;
  for (const line of s.split(/(?<=\n)/)) {
    const bare = line.replace(/\r?\n$/, "").trimEnd();
    if (bare === delimiter || bare === `${delimiter}--`) {
      if (start >= 0) {
        // The line break before a delimiter belongs to the delimiter.
        const end = s.slice(0, offset).endsWith("\r\n") ? offset - 2 : s.slice(0, offset).endsWith("\n") ? offset - 1 : offset;
        parts.push(body.subarray(start, end));
      }
      if (bare === `${delimiter}--`) return parts;
      start = offset + line.length;
    }
    offset += line.length;
  }
  return parts;
}

function decodeTransfer(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? "7bit").trim().toLowerCase()) {
    case "base64":
      return Buffer.from(body.toString("latin1").replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
    case "quoted-printable":
      return decodeQuotedPrintable(body.toString("latin1"));
    default:
      return body;
  }
}

function decodeQuotedPrintable(s: string): Buffer {
  const bytes: number[] = [];
  // Soft line breaks (`=` at the end of a line) join lines; trailing white space on a line is padding.
  const text = s.replace(/[ \t]+(?=\r?\n)/g, "").replace(/=\r?\n/g, "");
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const hex = text.slice(i + 1, i + 3);
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(c.charCodeAt(0) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeCharset(bytes: Uint8Array, charset: string): string {
  const label = charset.trim().toLowerCase();
  try {
    return new TextDecoder(label === "us-ascii" ? "utf-8" : label).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** RFC 2047: `=?utf-8?Q?...?=` and `=?utf-8?B?...?=`; white space between adjacent encoded-words is dropped. */
export function decodeEncodedWords(value: string): string {
  const WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
  const joined = value.replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)/g, "$1");
  // Decode runs of adjacent words with the same charset together: a multi-byte character may be split.
  let out = "";
  let last = 0;
  let pending: { charset: string; bytes: number[] } | undefined;
  const flush = () => {
    if (pending) out += decodeCharset(Uint8Array.from(pending.bytes), pending.charset.replace(/\*.*$/, ""));
    pending = undefined;
  };
  for (const m of joined.matchAll(WORD)) {
    if (m.index > last) {
      flush();
      out += joined.slice(last, m.index);
    }
    const charset = m[1]!.toLowerCase();
    const bytes =
      m[2]!.toUpperCase() === "B"
        ? [...Buffer.from(m[3]!, "base64")]
        : [...decodeQuotedPrintable(m[3]!.replace(/_/g, " "))];
    if (pending && pending.charset !== charset) flush();
    pending ??= { charset, bytes: [] };
    pending.bytes.push(...bytes);
    last = m.index + m[0].length;
  }
  flush();
  return out + joined.slice(last);
}

/** `"Name, Inc." <a@b>`, `=?utf-8?Q?...?= <a@b>`, `Name <a@b>` or `a@b` -> { name, address }. */
export function parseMailbox(value: string): { name: string; address: string } {
  const angle = /<([^<>]*)>\s*$/.exec(value);
  if (!angle) return { name: "", address: value.trim() };
  const display = value.slice(0, angle.index).trim();
  let name: string;
  if (/^"(?:[^"\\]|\\.)*"$/.test(display)) {
    name = display.slice(1, -1).replace(/\\(.)/g, "$1");
    // Some encoders put encoded-words inside quotes; readers decode them there too.
    name = /=\?[^?]+\?[BbQq]\?/.test(name) ? decodeEncodedWords(name) : name;
  } else {
    name = decodeEncodedWords(display);
  }
  return { name, address: angle[1]!.trim() };
}
