// Users, sign-in and sessions (docs/auth.md). One of lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Always stored lowercase (enforced by the check below as well as by the code). */
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    isAdmin: boolean("is_admin").notNull().default(false),
    plan: text("plan", { enum: ["free", "pro"] }).notNull().default("free"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a session of the user was last used (moved with the session's idle expiry), for the admin view. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    /** When the user last opened the in-app changelog ("What's new"): releases after it are unread. */
    changelogViewedAt: timestamp("changelog_viewed_at", { withTimezone: true }),
  },
  (t) => [
    index("users_created_idx").on(t.createdAt, t.id),
    check("users_email_lowercase", sql`${t.email} = lower(${t.email})`),
    check("users_plan_known", sql`${t.plan} in ('free', 'pro')`),
  ],
);

/**
 * Failed sign-ins, by the SHA-256 of the lowercased email (known or not: an unknown email is locked the same
 * way, and no email typed by a stranger is stored). Ten in 15 minutes lock that email's sign-in (lib/auth/lockout.ts).
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    key: text("key").notNull(),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The SHA-256 of the failing request's device cookie (lib/auth/devices.ts), if it sent a well-formed one. */
    deviceHash: text("device_hash"),
  },
  (t) => [index("sign_in_failures_key_idx").on(t.key, t.failedAt)],
);

/**
 * The second factor (lib/auth/two-factor.ts, docs/auth.md "Second factor"): a TOTP secret sealed like a stored
 * key (lib/crypto/envelope.ts; additional data: the user and "totp"), so the key rotation and the start-up
 * check cover it (the sealed_secrets view). `enabledAt` is null while set up but not yet confirmed with a
 * code; `lastStep` is the newest time step accepted, so each code signs in once.
 */
export const userTotp = pgTable("user_totp", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  ciphertext: text("ciphertext").notNull(),
  keyId: text("key_id").notNull(),
  enabledAt: timestamp("enabled_at", { withTimezone: true }),
  lastStep: bigint("last_step", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One-time backup codes of the second factor, by the SHA-256 of the user id and the code; each used once. */
export const backupCodes = pgTable(
  "backup_codes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/**
 * The second step of a sign-in with the second factor on: the right password gave a challenge (only its
 * SHA-256 is stored) that lives 5 minutes and takes 5 codes.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The WebAuthn challenge asked of a passkey for this second step, once asked for (passkeys.ts). */
    webauthnChallenge: text("webauthn_challenge"),
  },
  (t) => [index("sign_in_challenges_user_idx").on(t.userId), index("sign_in_challenges_expires_idx").on(t.expiresAt)],
);

/**
 * Personal access tokens (lib/auth/tokens.ts, docs/auth.md "Personal access tokens"): for scripts and trading
 * platforms, `Authorization: Bearer <token>`; only the token's SHA-256 is stored. Scopes: read, import,
 * fills:write. A deleted token is gone (DELETE /api/auth/tokens/:id); an expired one stays listed, refused.
 */
export const accessTokens = pgTable(
  "access_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    scopes: text("scopes").array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("access_tokens_hash_idx").on(t.tokenHash),
    index("access_tokens_user_idx").on(t.userId, t.createdAt),
    check("access_tokens_scopes_known", sql`cardinality(${t.scopes}) > 0 and ${t.scopes} <@ array['read', 'import', 'fills:write']::text[]`),
  ],
);

/**
 * The browsers each user has signed in from (lib/auth/devices.ts): the SHA-256 of a long-lived random device
 * cookie. A sign-in from a browser not listed, for a user with some listed, mails its owner.
 */
export const knownDevices = pgTable(
  "known_devices",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceHash: text("device_hash").notNull(),
    userAgent: text("user_agent"),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] }), index("known_devices_seen_idx").on(t.lastSeenAt)],
);

/**
 * Passkeys (lib/auth/passkeys.ts, docs/auth.md "Passkeys"): WebAuthn credentials, a second factor after the
 * password and a sign-in of their own. The public key and the signature counter.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialId: text("credential_id").notNull(),
    /** COSE algorithm: -7 (ES256; the key as SEC1 bytes, base64url) or -257 (RS256; "n.e", each base64url). */
    algorithm: integer("algorithm").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").notNull().default(sql`'[]'::jsonb`),
    name: text("name").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("passkeys_credential_idx").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

/**
 * A WebAuthn ceremony in progress: its challenge, for whom (null: a passkey sign-in, whoever it turns out to
 * be) and until when (5 minutes). Only the SHA-256 of the flow id handed to the browser is stored.
 */
export const webauthnFlows = pgTable(
  "webauthn_flows",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["register", "login"] }).notNull(),
    challenge: text("challenge").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("webauthn_flows_expires_idx").on(t.expiresAt), check("webauthn_flows_purpose_known", sql`${t.purpose} in ('register', 'login')`)],
);

export const sessions = pgTable(
  "sessions",
  {
    /** Public, random session id (the cookie carries id + secret; only the secret's hash is stored). */
    id: text("id").primaryKey(),
    secretHash: text("secret_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** Idle expiry: slides forward while the session is used. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Absolute expiry: never moves. */
    absoluteExpiresAt: timestamp("absolute_expires_at", { withTimezone: true }).notNull(),
    /** Shown in the sessions list so a user can tell devices apart (truncated; no IP address is kept). */
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id_created_at_idx").on(t.userId, t.createdAt)],
);

/** Single-use tokens mailed to a user: email verification and password reset. Only a hash is stored. */
export const emailTokens = pgTable(
  "email_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["verify_email", "reset_password"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("email_tokens_user_id_idx").on(t.userId),
    check("email_tokens_purpose_known", sql`${t.purpose} in ('verify_email', 'reset_password')`),
  ],
);
