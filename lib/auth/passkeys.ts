// Passkeys (docs/auth.md, "Passkeys"): WebAuthn credentials (W3C WebAuthn Level 2, sections 7.1 and 7.2), parsed
// by @oslojs/webauthn and their signatures checked by @oslojs/crypto (ES256 and RS256: what platform
// authenticators and security keys use), small enough for a Worker. Attestation is "none": the browser is asked
// for none and no attestation statement is trusted or needed. Only the passkeys group (functions/passkeys.ts)
// imports this file. Two roles:
//   - a sign-in of their own: the browser offers the account's discoverable passkey; user verification (PIN,
//     fingerprint, face) is required, so the passkey alone is two factors;
//   - a second factor after the password, like an authenticator code (two-factor.ts asks for one of them).
// Each ceremony's challenge lives 5 minutes and is used once: registrations and passkey sign-ins keep it in
// webauthn_flows (by the SHA-256 of the flow id the browser holds), the second factor on its sign-in challenge.
// The relying party (rpID and the origins accepted) comes from the HTTP layer: WEB_BASE_URL when set, else the
// host the request came to.
import { sha256Hex } from "../crypto/hash.ts";
import { randomBytes } from "node:crypto";
import { decodePKIXECDSASignature, decodeSEC1PublicKey, p256, verifyECDSASignature } from "@oslojs/crypto/ecdsa";
import { RSAPublicKey, sha256ObjectIdentifier, verifyRSASSAPKCS1v15Signature } from "@oslojs/crypto/rsa";
import { sha256 as sha256Bytes } from "@oslojs/crypto/sha2";
import {
  ClientDataType,
  coseAlgorithmES256,
  coseAlgorithmRS256,
  coseEllipticCurveP256,
  createAssertionSignatureMessage,
  parseAttestationObject,
  parseAuthenticatorData,
  parseClientDataJSON,
} from "@oslojs/webauthn";
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { PRODUCT } from "../email/messages.ts";
import { AppError } from "../errors.ts";
import { verifyPassword } from "./password.ts";
import type { AuthUser } from "./session.ts";
import { clearFailures } from "./lockout.ts";
import { finishSignInChallenge, signInChallengeUser, trySignInChallenge } from "./two-factor.ts";

export type RelyingParty = { rpID: string; origins: string[] };
export const MAX_PASSKEYS = 10;
const FLOW_TTL_MS = 5 * 60 * 1000;

const toBase64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const fromBase64url = (text: string) => new Uint8Array(Buffer.from(text, "base64url"));
const TIMEOUT_MS = FLOW_TTL_MS;
/** The algorithms a new passkey may use, in the order offered. */
const ALGORITHMS = [coseAlgorithmES256, coseAlgorithmRS256];
const transportsOf = (t: string[] | string) => (typeof t === "string" ? (JSON.parse(t) as string[]) : t);
const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const bigintBytes = (n: bigint) => {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return new Uint8Array(Buffer.from(hex, "hex"));
};
const bytesBigint = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);

/** A new challenge: 32 random bytes, base64url as the options carry it. */
const newChallenge = () => randomBytes(32).toString("base64url");

/**
 * The checks both ceremonies make of clientDataJSON: its type, the challenge this flow issued, and an origin of
 * the relying party (never a frame of another site). The parsed bytes, or null.
 */
function checkClientData(encoded: string, type: ClientDataType, challenge: string, rp: RelyingParty): Uint8Array | null {
  const bytes = fromBase64url(encoded);
  const data = parseClientDataJSON(bytes);
  if (data.type !== type || !equalBytes(data.challenge, fromBase64url(challenge))) return null;
  if (!rp.origins.includes(data.origin) || data.crossOrigin === true) return null;
  return bytes;
}

/** Verifies a registration answer (WebAuthn 7.1); the credential to keep, or null when it does not verify. */
function verifyRegistration(credential: Credential, challenge: string, rp: RelyingParty) {
  const response = credential.response as { clientDataJSON: string; attestationObject?: unknown; transports?: unknown };
  if (typeof response.attestationObject !== "string") return null;
  if (!checkClientData(response.clientDataJSON, ClientDataType.Create, challenge, rp)) return null;
  const attestationBytes = fromBase64url(response.attestationObject);
  const { authenticatorData } = parseAttestationObject(attestationBytes);
  if (!authenticatorData.verifyRelyingPartyIdHash(rp.rpID) || !authenticatorData.userPresent || !authenticatorData.credential) return null;
  const { id, publicKey } = authenticatorData.credential;
  if (toBase64url(id) !== credential.id) return null;
  let key: { algorithm: number; encoded: string };
  if (publicKey.algorithm() === coseAlgorithmES256) {
    const ec = publicKey.ec2();
    if (ec.curve !== coseEllipticCurveP256) return null;
    key = { algorithm: coseAlgorithmES256, encoded: toBase64url(new Uint8Array([4, ...pad32(bigintBytes(ec.x)), ...pad32(bigintBytes(ec.y))])) };
  } else if (publicKey.algorithm() === coseAlgorithmRS256) {
    const rsa = publicKey.rsa();
    key = { algorithm: coseAlgorithmRS256, encoded: `${toBase64url(bigintBytes(rsa.n))}.${toBase64url(bigintBytes(rsa.e))}` };
  } else {
    return null;
  }
  const transports = Array.isArray(response.transports) ? response.transports.filter((t): t is string => typeof t === "string").slice(0, 8) : [];
  return { credentialId: credential.id, ...key, counter: authenticatorData.signatureCounter, transports, backedUp: backedUpFlag(attestationBytes, authenticatorData) };
}

/** 32 bytes, left-padded: a P-256 coordinate. */
function pad32(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  out.set(bytes.subarray(Math.max(0, bytes.length - 32)), 32 - Math.min(32, bytes.length));
  return out;
}

/**
 * The backup-state flag (BS, 0x10) of authenticator data, which the parser does not expose: the flags byte sits
 * after the 32-byte rpIdHash, and the attestation object's authData is found by that hash.
 */
function backedUpFlag(attestationBytes: Uint8Array, data: { relyingPartyIdHash: Uint8Array }): boolean {
  const at = Buffer.from(attestationBytes).indexOf(Buffer.from(data.relyingPartyIdHash));
  return at >= 0 && (attestationBytes[at + 32]! & 0x10) !== 0;
}

/** Checks an assertion's signature (WebAuthn 7.2, step 20) with a stored key. */
function signatureValid(row: { algorithm: number; public_key: string }, message: Uint8Array, signature: Uint8Array): boolean {
  const hash = sha256Bytes(message);
  if (row.algorithm === coseAlgorithmES256) {
    return verifyECDSASignature(decodeSEC1PublicKey(p256, fromBase64url(row.public_key)), hash, decodePKIXECDSASignature(signature));
  }
  if (row.algorithm === coseAlgorithmRS256) {
    const [n, e] = row.public_key.split(".");
    return verifyRSASSAPKCS1v15Signature(new RSAPublicKey(bytesBigint(fromBase64url(n!)), bytesBigint(fromBase64url(e!))), sha256ObjectIdentifier, hash, signature);
  }
  return false;
}

/** A credential as the browser answers it (PublicKeyCredential's JSON): checked in depth by the library. */
export const CredentialJsonSchema = z.looseObject({
  id: z.string().check(z.minLength(1, "is required"), z.maxLength(1024, "is too long")),
  rawId: z.string().check(z.maxLength(1024, "is too long")),
  type: z.literal("public-key", { error: 'must be "public-key"' }),
  response: z.looseObject({ clientDataJSON: z.string().check(z.maxLength(8192, "is too long")) }),
});
const FlowIdSchema = z.string().check(z.minLength(16, "is too short"), z.maxLength(200, "is too long"));

export const NewPasskeySchema = z.strictObject({
  flowId: FlowIdSchema,
  name: z.optional(z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(80, "must be at most 80 characters"))),
  credential: CredentialJsonSchema,
});
export const PasskeySignInSchema = z.strictObject({ flowId: FlowIdSchema, credential: CredentialJsonSchema });
export const SecondStepSchema = z.strictObject({
  challenge: z.string().check(z.minLength(16, "is too short"), z.maxLength(200, "is too long")),
  credential: CredentialJsonSchema,
});
export const ChallengeOnlySchema = z.strictObject({ challenge: z.string().check(z.minLength(16, "is too short"), z.maxLength(200, "is too long")) });
export const PasskeyIdParamSchema = z.object({ id: z.uuid("must be a uuid") });
export const DeletePasskeySchema = z.strictObject({ password: z.string().check(z.minLength(1, "is required"), z.maxLength(1024, "is too long")) });
export type Credential = z.infer<typeof CredentialJsonSchema>;

export type PasskeyInfo = { id: string; name: string; createdAt: string; lastUsedAt: string | null; backedUp: boolean };

const passkeyColumns = sql.raw(`id::text, name, ${isoUtc("created_at")} as "createdAt", ${isoUtc("last_used_at")} as "lastUsedAt", backed_up as "backedUp"`);

async function startFlow(deps: Pick<Deps, "db" | "now">, userId: string | null, purpose: "register" | "login", challenge: string): Promise<string> {
  const flowId = randomBytes(32).toString("base64url");
  const now = deps.now();
  await deps.db.execute(sql`with gone as (delete from webauthn_flows where expires_at <= ${now.toISOString()}::timestamptz)
    insert into webauthn_flows (id, user_id, purpose, challenge, expires_at)
    values (${sha256Hex(flowId)}, ${userId}::uuid, ${purpose}, ${challenge}, ${new Date(now.getTime() + FLOW_TTL_MS).toISOString()}::timestamptz)`);
  return flowId;
}

/** Takes (deletes) a live flow: its challenge, or null when it is unknown, spent, expired or someone else's. */
async function takeFlow(deps: Pick<Deps, "db" | "now">, flowId: string, purpose: "register" | "login", userId: string | null): Promise<string | null> {
  const [row] = rowsOf<{ challenge: string }>(
    await deps.db.execute(sql`delete from webauthn_flows
      where id = ${sha256Hex(flowId)} and purpose = ${purpose} and expires_at > ${deps.now().toISOString()}::timestamptz
        and ${userId === null ? sql`user_id is null` : sql`user_id = ${userId}::uuid`}
      returning challenge`),
  );
  return row?.challenge ?? null;
}

/** The options for navigator.credentials.create(), and the flow id to send back with its answer. */
export async function passkeyRegistrationOptions(deps: Pick<Deps, "db" | "now">, user: Pick<AuthUser, "id" | "email">, rp: RelyingParty) {
  const existing = rowsOf<{ credential_id: string; transports: string[] | string }>(
    await deps.db.execute(sql`select credential_id, transports from passkeys where user_id = ${user.id}::uuid`),
  );
  if (existing.length >= MAX_PASSKEYS) throw new AppError("CONFLICT", `You have ${MAX_PASSKEYS} passkeys: remove one first.`);
  const options = {
    challenge: newChallenge(),
    rp: { name: PRODUCT, id: rp.rpID },
    user: { id: toBase64url(new TextEncoder().encode(user.id)), name: user.email, displayName: user.email },
    pubKeyCredParams: ALGORITHMS.map((alg) => ({ type: "public-key" as const, alg })),
    timeout: TIMEOUT_MS,
    attestation: "none" as const,
    excludeCredentials: existing.map((p) => ({ type: "public-key" as const, id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "required" as const, requireResidentKey: true, userVerification: "preferred" as const },
  };
  return { flowId: await startFlow(deps, user.id, "register", options.challenge), options };
}

const notAccepted = (what: string) => new AppError("VALIDATION_ERROR", `The ${what} was not accepted.`, { fields: [{ path: "credential", message: "was not accepted" }] });

/** Verifies the browser's answer to the registration options and keeps the passkey. */
export async function registerPasskey(
  deps: Pick<Deps, "db" | "now">,
  user: Pick<AuthUser, "id">,
  rp: RelyingParty,
  input: z.infer<typeof NewPasskeySchema>,
): Promise<PasskeyInfo> {
  const challenge = await takeFlow(deps, input.flowId, "register", user.id);
  if (!challenge) throw new AppError("CONFLICT", "This passkey setup has expired or was already used: start again.");
  let verified: ReturnType<typeof verifyRegistration>;
  try {
    verified = verifyRegistration(input.credential, challenge, rp);
  } catch {
    verified = null; // a parse error: not a well-formed answer
  }
  if (!verified) throw notAccepted("passkey");
  const [row] = rowsOf<PasskeyInfo>(
    await deps.db.execute(sql`insert into passkeys (user_id, credential_id, algorithm, public_key, counter, transports, name, backed_up)
      values (${user.id}::uuid, ${verified.credentialId}, ${verified.algorithm}, ${verified.encoded}, ${verified.counter}, ${JSON.stringify(verified.transports)}::jsonb,
        ${input.name ?? "Passkey"}, ${verified.backedUp})
      on conflict (credential_id) do nothing
      returning ${passkeyColumns}`),
  );
  if (!row) throw new AppError("CONFLICT", "This passkey is already registered.");
  return row;
}

export async function listPasskeys(deps: Pick<Deps, "db">, userId: string): Promise<PasskeyInfo[]> {
  return rowsOf<PasskeyInfo>(await deps.db.execute(sql`select ${passkeyColumns} from passkeys where user_id = ${userId}::uuid order by created_at, id`));
}

/** Removes one of the user's passkeys after their password; false when they have no such passkey. */
export async function deletePasskey(deps: Pick<Deps, "db">, userId: string, id: string, password: string): Promise<boolean> {
  const [user] = rowsOf<{ password_hash: string }>(await deps.db.execute(sql`select password_hash from users where id = ${userId}::uuid`));
  if (!user || !(await verifyPassword(password, user.password_hash))) {
    throw new AppError("VALIDATION_ERROR", "The password is wrong.", { fields: [{ path: "password", message: "is wrong" }] });
  }
  return rowsOf(await deps.db.execute(sql`delete from passkeys where id = ${id}::uuid and user_id = ${userId}::uuid returning 1`)).length > 0;
}

/** The options for a passkey sign-in (any account's discoverable passkey, user verification required). */
export async function passkeySignInOptions(deps: Pick<Deps, "db" | "now">, rp: RelyingParty) {
  const options = { challenge: newChallenge(), rpId: rp.rpID, timeout: TIMEOUT_MS, userVerification: "required" as const, allowCredentials: [] };
  return { flowId: await startFlow(deps, null, "login", options.challenge), options };
}

type PasskeyRow = { id: string; user_id: string; credential_id: string; algorithm: number; public_key: string; counter: string | number };

/**
 * Checks an assertion against a stored passkey and moves its counter on, in a statement conditional on the
 * counter read (two uses of one assertion: one wins). True when accepted.
 */
async function verifyAssertion(
  deps: Pick<Deps, "db">,
  rp: RelyingParty,
  passkey: PasskeyRow,
  challenge: string,
  credential: Credential,
  requireUserVerification: boolean,
): Promise<boolean> {
  const response = credential.response as { clientDataJSON: string; authenticatorData?: unknown; signature?: unknown };
  if (typeof response.authenticatorData !== "string" || typeof response.signature !== "string") return false;
  let counter: number;
  try {
    const clientData = checkClientData(response.clientDataJSON, ClientDataType.Get, challenge, rp);
    if (!clientData) return false;
    const authBytes = fromBase64url(response.authenticatorData);
    const data = parseAuthenticatorData(authBytes);
    if (!data.verifyRelyingPartyIdHash(rp.rpID) || !data.userPresent || (requireUserVerification && !data.userVerified)) return false;
    if (!signatureValid(passkey, createAssertionSignatureMessage(authBytes, clientData), fromBase64url(response.signature))) return false;
    counter = data.signatureCounter;
  } catch {
    return false; // a malformed answer
  }
  // A counter that did not move on (while either side counts) is a cloned authenticator's.
  const stored = Number(passkey.counter);
  if ((counter > 0 || stored > 0) && counter <= stored) return false;
  return (
    rowsOf(
      await deps.db.execute(sql`update passkeys set counter = ${counter}, last_used_at = now()
        where id = ${passkey.id}::uuid and counter = ${stored} returning 1`),
    ).length > 0
  );
}

async function passkeyByCredential(deps: Pick<Deps, "db">, credentialId: string, userId?: string): Promise<PasskeyRow | undefined> {
  return rowsOf<PasskeyRow>(
    await deps.db.execute(sql`select id::text, user_id::text, credential_id, algorithm, public_key, counter from passkeys
      where credential_id = ${credentialId} ${userId ? sql`and user_id = ${userId}::uuid` : sql``}`),
  )[0];
}

const notRecognised = () => new AppError("UNAUTHORIZED", "The passkey was not accepted.");

/**
 * A passkey sign-in: the user whose passkey answered the flow's challenge, with user verification. Two factors by
 * itself, so it is not held by the lockout and forgets the account's failed sign-ins (lockout.ts).
 */
export async function passkeySignIn(deps: Pick<Deps, "db" | "now">, rp: RelyingParty, input: z.infer<typeof PasskeySignInSchema>): Promise<AuthUser> {
  const challenge = await takeFlow(deps, input.flowId, "login", null);
  if (!challenge) throw notRecognised();
  const passkey = await passkeyByCredential(deps, input.credential.id);
  if (!passkey || !(await verifyAssertion(deps, rp, passkey, challenge, input.credential, true))) throw notRecognised();
  const [user] = rowsOf<{ id: string; email: string; email_verified: boolean; is_admin: boolean; plan: AuthUser["plan"] }>(
    await deps.db.execute(sql`select id::text, email, email_verified, is_admin, plan from users where id = ${passkey.user_id}::uuid`),
  );
  if (!user) throw notRecognised();
  await clearFailures(deps, user.email);
  return { id: user.id, email: user.email, emailVerified: user.email_verified, isAdmin: user.is_admin, plan: user.plan };
}

/**
 * The second step of a password sign-in with a passkey, before the answer: the options for
 * navigator.credentials.get() naming the user's passkeys, the challenge kept on the sign-in challenge. 401 for a
 * challenge that is not live; 409 when the user has no passkey.
 */
export async function secondStepOptions(deps: Pick<Deps, "db" | "now">, rp: RelyingParty, challenge: string) {
  const { userId, challengeHash } = await signInChallengeUser(deps, challenge);
  const mine = rowsOf<{ credential_id: string; transports: string[] | string }>(
    await deps.db.execute(sql`select credential_id, transports from passkeys where user_id = ${userId}::uuid`),
  );
  if (!mine.length) throw new AppError("CONFLICT", "This account has no passkey: use a code from the authenticator app or a backup code.");
  const options = {
    challenge: newChallenge(),
    rpId: rp.rpID,
    timeout: TIMEOUT_MS,
    userVerification: "preferred" as const,
    allowCredentials: mine.map((p) => ({ type: "public-key" as const, id: p.credential_id, transports: transportsOf(p.transports) })),
  };
  await deps.db.execute(sql`update sign_in_challenges set webauthn_challenge = ${options.challenge} where id = ${challengeHash}`);
  return options;
}

/**
 * The second step answered with a passkey: one of the user's passkeys answered the kept challenge. Counted and
 * refused exactly like a code (two-factor.ts): 401 as a wrong password, toward the lockout.
 */
export async function secondStepWithPasskey(
  deps: Pick<Deps, "db" | "now" | "analytics">,
  rp: RelyingParty,
  challenge: string,
  credential: Credential,
  deviceId: string | undefined,
): Promise<AuthUser> {
  const tried = await trySignInChallenge(deps, challenge, deviceId);
  const passkey = tried.webauthnChallenge ? await passkeyByCredential(deps, credential.id, tried.user.id) : undefined;
  const accepted = passkey ? await verifyAssertion(deps, rp, passkey, tried.webauthnChallenge!, credential, false) : false;
  return finishSignInChallenge(deps, challenge, tried, accepted);
}

/** Flows past their 5 minutes: removed by the purge-sessions job. */
export async function purgeWebauthnFlows(deps: Pick<Deps, "db" | "now">): Promise<number> {
  return rowsOf(await deps.db.execute(sql`delete from webauthn_flows where expires_at <= ${deps.now().toISOString()}::timestamptz returning 1`)).length;
}
