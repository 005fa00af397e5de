import { afterEach, describe, expect, it } from "vitest";
import { RESET_PASSWORD_TTL_MS, VERIFY_EMAIL_TTL_MS } from "../../lib/auth/email-tokens.ts";
import type { Config } from "../../lib/config/index.ts";
import {
  createEdgeMailer,
  createNodeMailer,
  passwordResetEmail,
  SMTP_ON_EDGE_MESSAGE,
  verificationEmail,
  type MailMessage,
} from "../../lib/email/index.ts";
import { scrub } from "../../lib/email/redact.ts";
import { startEmailApiServer, type EmailApiServer } from "../support/email-api-server.ts";
import { testConfig } from "../support/env.ts";
import { parseMessage, startSmtpServer, type SmtpTestServer, type SmtpTlsMode } from "../support/smtp-server.ts";

const WEB = "http://localhost:3100";
const FROM = "noreply@example.com";
const TO = "trader@example.com";
// Long and full of characters that need URL-encoding, so quoted-printable must break and escape it.
const TOKEN = `${"7f3a9c".repeat(11)}+/=&?#%é`;
const ENCODED_TOKEN = encodeURIComponent(TOKEN);
const SMTP_USER = "mailer";
const SMTP_PASS = "s3cret-Smtp-Pass!";
const WRONG_PASS = "wrong-Pass-0987";
const RESEND_KEY = "re_test_0123456789abcdef";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function smtpServer(options: Parameters<typeof startSmtpServer>[0]): Promise<SmtpTestServer> {
  const server = await startSmtpServer(options);
  cleanups.push(() => server.close());
  return server;
}

async function apiServer(): Promise<EmailApiServer> {
  const server = await startEmailApiServer();
  cleanups.push(() => server.close());
  return server;
}

function smtpConfig(port: number, mode: SmtpTlsMode, extra: Record<string, string> = {}): Config {
  return testConfig({
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(port),
    SMTP_TLS_MODE: mode,
    EMAIL_FROM: FROM,
    EMAIL_FROM_NAME: "Trading Journal",
    WEB_BASE_URL: WEB,
    ...extra,
  });
}

function resendConfig(apiUrl: string, extra: Record<string, string | undefined> = {}): Config {
  return testConfig({
    SMTP_HOST: "smtp.resend.com",
    SMTP_PORT: "465",
    SMTP_TLS_MODE: "implicit",
    SMTP_USER: "resend",
    SMTP_PASS: RESEND_KEY,
    EMAIL_FROM: FROM,
    EMAIL_FROM_NAME: "Trading Journal",
    WEB_BASE_URL: WEB,
    EMAIL_API_BASE_URL: apiUrl,
    ...extra,
  });
}

function verification(config: Config): MailMessage {
  return { to: TO, ...verificationEmail(config, TOKEN) };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the send should have been rejected").toBeInstanceOf(Error);
  return err as Error;
}

function expectNoSecrets(text: string, secrets: string[]): void {
  for (const s of secrets) {
    expect(text).not.toContain(s);
    expect(text).not.toContain(Buffer.from(s).toString("base64"));
  }
  expect(text).not.toContain(TOKEN.slice(0, 20));
}

describe("email messages", () => {
  const config = smtpConfig(2525, "none");

  it("links the verification email to the web app with the URL-encoded token and a 24-hour expiry", () => {
    const m = verificationEmail(config, TOKEN);
    const link = `${WEB}/verify-email?token=${ENCODED_TOKEN}`;
    expect(m.text).toContain(link);
    expect(m.text).toMatch(/expires in 24 hours/);
    expect(m.html).toContain(`href="${link}"`);
    expect(m.subject).toMatch(/confirm your email/i);
  });

  it("links the reset email to the web app with a 1-hour expiry and tells a stranger to ignore it", () => {
    const m = passwordResetEmail(config, "abc");
    expect(m.text).toContain(`${WEB}/reset-password?token=abc`);
    expect(m.text).toMatch(/expires in 1 hour\b/);
    expect(m.text).toMatch(/did not ask for this, ignore this email/i);
    expect(m.html).toContain(`href="${WEB}/reset-password?token=abc"`);
  });

  it("states the same expiries as the token lifetimes the auth code issues", () => {
    expect(VERIFY_EMAIL_TTL_MS).toBe(24 * 3600 * 1000);
    expect(RESET_PASSWORD_TTL_MS).toBe(3600 * 1000);
  });

  it("refuses to build links when email is not configured", () => {
    expect(() => verificationEmail(testConfig(), "t")).toThrow(/WEB_BASE_URL/);
  });
});

describe("createNodeMailer (SMTP through nodemailer)", () => {
  it("is undefined when the SMTP_HOST / EMAIL_FROM / WEB_BASE_URL trio is not set", async () => {
    const config = testConfig();
    expect(config.features.email).toBe(false);
    expect(await createNodeMailer(config)).toBeUndefined();
    expect(createEdgeMailer(config, globalThis.fetch)).toBeUndefined();
  });

  for (const mode of ["implicit", "starttls", "none"] as const) {
    it(`delivers a verification email with SMTP_TLS_MODE=${mode}`, async () => {
      const server = await smtpServer({ tls: mode });
      const config = smtpConfig(server.port, mode);
      const mailer = await createNodeMailer(config, { tlsRejectUnauthorized: false });
      expect(mailer).toBeDefined();

      await mailer!.send(verification(config));
      const got = await server.waitFor();

      expect(got.secure).toBe(mode !== "none");
      expect(got.from).toEqual({ name: "Trading Journal", address: FROM });
      expect(got.envelopeFrom).toBe(FROM);
      expect(got.to).toEqual([TO]);
      expect(got.headers["to"]).toBe(TO);
      expect(got.subject).toBe(verificationEmail(config, TOKEN).subject);
      expect(got.text).toContain(`\n${WEB}/verify-email?token=${ENCODED_TOKEN}\n`);
      expect(got.text).toContain("expires in 24 hours");
      expect(got.html).toContain(`href="${WEB}/verify-email?token=${ENCODED_TOKEN}"`);
      expect(got.authUser).toBeUndefined();
    });
  }

  it("delivers a password-reset email with the reset link", async () => {
    const server = await smtpServer({ tls: "starttls" });
    const config = smtpConfig(server.port, "starttls");
    const mailer = await createNodeMailer(config, { tlsRejectUnauthorized: false });
    await mailer!.send({ to: TO, ...passwordResetEmail(config, TOKEN) });
    const got = await server.waitFor();
    expect(got.text).toContain(`${WEB}/reset-password?token=${ENCODED_TOKEN}`);
    expect(got.text).toContain("expires in 1 hour");
  });

  it("quotes or encodes a display name with commas, quotes and non-ASCII characters", async () => {
    const name = 'Journal "Ops", Zürich \\ Desk';
    const server = await smtpServer({ tls: "none" });
    const config = smtpConfig(server.port, "none", { EMAIL_FROM_NAME: name });
    const mailer = await createNodeMailer(config);
    await mailer!.send(verification(config));
    const got = await server.waitFor();
    expect(got.from).toEqual({ name, address: FROM });
    expect(got.fromHeader).not.toMatch(/[\r\n]/);
  });

  it("sends From as the bare address when EMAIL_FROM_NAME is unset", async () => {
    const server = await smtpServer({ tls: "none" });
    const config = smtpConfig(server.port, "none", { EMAIL_FROM_NAME: "" });
    const mailer = await createNodeMailer(config);
    await mailer!.send(verification(config));
    const got = await server.waitFor();
    expect(got.from).toEqual({ name: "", address: FROM });
  });

  it("authenticates with SMTP_USER / SMTP_PASS when the server requires it", async () => {
    const server = await smtpServer({ tls: "starttls", auth: { user: SMTP_USER, pass: SMTP_PASS } });
    const config = smtpConfig(server.port, "starttls", { SMTP_USER, SMTP_PASS });
    const mailer = await createNodeMailer(config, { tlsRejectUnauthorized: false });
    await mailer!.send(verification(config));
    const got = await server.waitFor();
    expect(got.authUser).toBe(SMTP_USER);
    expect(got.secure).toBe(true);
  });

  it("rejects on a wrong password with an error that names neither password", async () => {
    const server = await smtpServer({ tls: "starttls", auth: { user: SMTP_USER, pass: SMTP_PASS } });
    const config = smtpConfig(server.port, "starttls", { SMTP_USER, SMTP_PASS: WRONG_PASS });
    const mailer = await createNodeMailer(config, { tlsRejectUnauthorized: false });
    const err = await rejection(mailer!.send(verification(config)));
    expect(err.message).toMatch(/EAUTH/);
    expect((err as { code?: string }).code).toBe("EAUTH");
    expectNoSecrets(`${err.message}\n${err.stack ?? ""}\n${JSON.stringify(err)}`, [WRONG_PASS, SMTP_PASS]);
    expect(server.failedLogins).toEqual([SMTP_USER]);
    expect(server.messages).toHaveLength(0);
  });

  it("does not send anything when the server requires AUTH and no credentials are configured", async () => {
    const server = await smtpServer({ tls: "starttls", auth: { user: SMTP_USER, pass: SMTP_PASS } });
    const config = smtpConfig(server.port, "starttls");
    const mailer = await createNodeMailer(config, { tlsRejectUnauthorized: false });
    await rejection(mailer!.send(verification(config)));
    expect(server.messages).toHaveLength(0);
  });

  it("starttls refuses a server that does not offer STARTTLS instead of sending in clear", async () => {
    const server = await smtpServer({ tls: "none", auth: { user: SMTP_USER, pass: SMTP_PASS } });
    const config = smtpConfig(server.port, "starttls", { SMTP_USER, SMTP_PASS });
    const mailer = await createNodeMailer(config, { tlsRejectUnauthorized: false });
    const err = await rejection(mailer!.send(verification(config)));
    expect(err.message).toMatch(/ETLS|STARTTLS/);
    expectNoSecrets(err.message, [SMTP_PASS]);
    expect(server.messages).toHaveLength(0);
    expect(server.failedLogins).toHaveLength(0); // credentials never went over the plain connection
  });

  it("none sends in plain text even when the server offers STARTTLS", async () => {
    const server = await smtpServer({ tls: "starttls" });
    const config = smtpConfig(server.port, "none");
    // Default certificate checking: it would fail on the self-signed certificate if STARTTLS were used.
    const mailer = await createNodeMailer(config);
    await mailer!.send(verification(config));
    const got = await server.waitFor();
    expect(got.secure).toBe(false);
  });

  it("verifies the server certificate by default (a self-signed one is refused)", async () => {
    for (const mode of ["implicit", "starttls"] as const) {
      const server = await smtpServer({ tls: mode });
      const config = smtpConfig(server.port, mode);
      const mailer = await createNodeMailer(config);
      const err = await rejection(mailer!.send(verification(config)));
      expect(err.message).toMatch(/certificate/i);
      expect(server.messages).toHaveLength(0);
    }
  });

  it("implicit TLS against a plain-text server fails instead of falling back", async () => {
    const server = await smtpServer({ tls: "starttls" });
    const config = smtpConfig(server.port, "implicit");
    const mailer = await createNodeMailer(config, { tlsRejectUnauthorized: false });
    await rejection(mailer!.send(verification(config)));
    expect(server.messages).toHaveLength(0);
  });

  it("fails fast with a connection error when nothing listens", async () => {
    const server = await smtpServer({ tls: "none" });
    const port = server.port;
    await server.close();
    const config = smtpConfig(port, "none", { SMTP_USER, SMTP_PASS });
    const mailer = await createNodeMailer(config);
    const started = Date.now();
    const err = await rejection(mailer!.send(verification(config)));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err.message).toMatch(/ECONNECTION|ECONNREFUSED/);
    expectNoSecrets(err.message, [SMTP_PASS]);
  });
});

describe("createEdgeMailer (Workers)", () => {
  it("sends through Resend's HTTP API with SMTP_PASS as the bearer key", async () => {
    const api = await apiServer();
    const config = resendConfig(api.url);
    const mailer = createEdgeMailer(config, globalThis.fetch);
    expect(mailer).toBeDefined();
    const message = verification(config);

    await mailer!.send(message);

    expect(api.requests).toHaveLength(1);
    const req = api.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/emails");
    expect(req.headers["authorization"]).toBe(`Bearer ${RESEND_KEY}`);
    expect(req.headers["content-type"]).toMatch(/^application\/json/);
    expect(req.json).toEqual({
      from: `"Trading Journal" <${FROM}>`,
      to: [TO],
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    expect((req.json as { text: string }).text).toContain(`${WEB}/verify-email?token=${ENCODED_TOKEN}`);
  });

  it("recognises the Resend host case-insensitively and escapes quotes in the display name", async () => {
    const api = await apiServer();
    const config = resendConfig(api.url, { SMTP_HOST: "SMTP.Resend.com", EMAIL_FROM_NAME: 'Journal "Ops" \\ Desk' });
    await createEdgeMailer(config, globalThis.fetch)!.send(verification(config));
    expect((api.requests[0]!.json as { from: string }).from).toBe(`"Journal \\"Ops\\" \\\\ Desk" <${FROM}>`);
  });

  it("throws with the status and without the key when the API answers an error", async () => {
    const api = await apiServer();
    api.respondWith(422, { statusCode: 422, name: "validation_error", message: `Invalid from field (key ${RESEND_KEY})` });
    const config = resendConfig(api.url);
    const mailer = createEdgeMailer(config, globalThis.fetch)!;
    const err = await rejection(mailer.send(verification(config)));
    expect(err.message).toContain("422");
    expect(err.message).toContain("validation_error");
    expect((err as { status?: number }).status).toBe(422);
    expectNoSecrets(`${err.message}\n${err.stack ?? ""}`, [RESEND_KEY]);

    api.respondWith(401);
    const err401 = await rejection(mailer.send(verification(config)));
    expect(err401.message).toContain("401");
    expectNoSecrets(err401.message, [RESEND_KEY]);
  });

  it("throws a clear error without the key when the API cannot be reached", async () => {
    const api = await startEmailApiServer();
    await api.close();
    const config = resendConfig(api.url);
    const err = await rejection(createEdgeMailer(config, globalThis.fetch)!.send(verification(config)));
    expect(err.message).toMatch(/could not be reached/);
    expectNoSecrets(err.message, [RESEND_KEY]);
  });

  it("any other SMTP_HOST gives a mailer whose send throws the Node-entrypoint error, with no request made", async () => {
    const calls: unknown[] = [];
    const fetchSpy = (async (...args: unknown[]) => {
      calls.push(args);
      return new Response("{}");
    }) as typeof fetch;
    const config = smtpConfig(2525, "starttls", { SMTP_USER, SMTP_PASS });
    const mailer = createEdgeMailer(config, fetchSpy);
    expect(mailer).toBeDefined();
    const err = await rejection(mailer!.send(verification(config)));
    expect(err.message).toBe(SMTP_ON_EDGE_MESSAGE);
    expect(err.message).toMatch(/needs the Node entrypoint; on Workers use Resend/);
    expect(err.name).toBe("Error");
    expectNoSecrets(err.message, [SMTP_PASS]);
    expect(calls).toHaveLength(0);
  });

  it("Resend without SMTP_PASS throws a clear error and makes no request", async () => {
    const calls: unknown[] = [];
    const fetchSpy = (async (...args: unknown[]) => {
      calls.push(args);
      return new Response("{}");
    }) as typeof fetch;
    const config = resendConfig("http://127.0.0.1:9", { SMTP_USER: undefined, SMTP_PASS: undefined });
    const err = await rejection(createEdgeMailer(config, fetchSpy)!.send(verification(config)));
    expect(err.message).toMatch(/SMTP_PASS/);
    expect(calls).toHaveLength(0);
  });
});

describe("scrub", () => {
  it("removes a secret, its base64 form, link tokens and email addresses", () => {
    const b64 = Buffer.from("hunter22").toString("base64");
    const out = scrub(`535 bad hunter22 ${b64} for a@b.example http://x/verify-email?token=abc123&y=1`, ["hunter22"]);
    expect(out).toBe("535 bad [redacted] [redacted] for [email] http://x/verify-email?token=[redacted]&y=1");
  });
});

// The test server's MIME reader has to be right for the assertions above to mean anything.
describe("test SMTP server: MIME reading", () => {
  const meta = { envelopeFrom: FROM, to: [TO], secure: false, authUser: undefined };

  it("decodes base64 parts, B-encoded and folded subjects, and picks text/plain out of multipart/alternative", () => {
    const text = "Línea uno\r\nhttp://localhost:3100/verify-email?token=abc%2B\r\n";
    const raw = [
      `From: =?ISO-8859-1?Q?Z=FCrich_?=`,
      ` =?UTF-8?B?RGVzaw==?= <${FROM}>`,
      `Subject: =?UTF-8?B?w4lw?=`,
      `  =?UTF-8?Q?=C3=A9e?= and more`,
      "Content-Type: multipart/alternative; boundary=b1",
      "",
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "",
      "<p>html</p>",
      "--b1",
      "Content-Type: text/plain; charset=\"utf-8\"",
      "Content-Transfer-Encoding: base64",
      "",
      ...Buffer.from(text).toString("base64").match(/.{1,20}/g)!,
      "--b1--",
      "",
    ].join("\r\n");
    const got = parseMessage(Buffer.from(raw, "latin1"), meta);
    expect(got.from).toEqual({ name: "Zürich Desk", address: FROM });
    expect(got.subject).toBe("Épée and more");
    expect(got.text).toBe("Línea uno\nhttp://localhost:3100/verify-email?token=abc%2B\n");
    expect(got.html).toBe("<p>html</p>");
  });

  it("decodes quoted-printable with soft line breaks in a single-part message", () => {
    const raw = [
      "From: plain@example.com",
      "Subject: plain",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "token=3Dab=",
      "cd caf=C3=A9 =20",
      "",
    ].join("\r\n");
    const got = parseMessage(Buffer.from(raw, "latin1"), meta);
    expect(got.from).toEqual({ name: "", address: "plain@example.com" });
    expect(got.text).toBe("token=abcd café  \n");
  });
});
