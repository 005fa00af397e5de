// Operator CLI: `npm run cli -- <command> [args]`. Uses DIRECT_DATABASE_URL when set, else DATABASE_URL
// (on the embedded database, stop the dev server first: PGlite allows one process at a time).
// Passwords are read from standard input when it is not a terminal, else prompted twice without echo;
// they never appear in arguments, output or logs.
import { unlockSignIn } from "../lib/auth/lockout.ts";
import { operatorDisableTwoFactor } from "../lib/auth/two-factor.ts";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { loadNodeConfigOrExit, type Config } from "../lib/config/index.ts";
import { rotateStoredKeys, RotationRefused } from "../lib/advisor/rotation.ts";
import { EmailSchema, PasswordSchema } from "../lib/auth/schema.ts";
import { endUserSessions } from "../lib/auth/session.ts";
import { createUser, findUserByEmail, listAdmins, OPERATOR_CLI, setAdmin, setPassword } from "../lib/auth/users.ts";
import type { DbHandle } from "../lib/db/client.ts";
import { createNodeDb } from "../lib/db/node.ts";
import { AppError } from "../lib/errors.ts";
import { createLogger } from "../lib/log.ts";
import { loadTickers, TickerFileError } from "../lib/market/tickers.ts";

const USAGE = `Usage: npm run cli -- <command> [<email>]

Commands:
  create-user <email> [--admin]   create an account (password from stdin or prompted)
  reset-password <email>          set a new password and end every session of the user
  promote-admin <email>           make the user an administrator
  demote-admin <email>            remove administrator rights
  revoke-sessions <email>         end every session of the user
  unlock-sign-in <email>          lift the lockout after repeated failed sign-ins of that email
  disable-2fa <email>             turn two-factor sign-in off for a user who lost their authenticator and
                                  backup codes (check who is asking first; written to the admin audit log)
  list-admins                     print the email of every administrator, one per line
  rotate-encryption-key           seal every stored provider and market-data key under ENCRYPTION_KEY again
                                  (the old key in ENCRYPTION_KEY_PREVIOUS; see docs/operations.md)
  load-tickers                    load the regulator's ticker file now (REGULATOR_TICKERS_URL), even if fresh
`;

class CliError extends Error {}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

function promptHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    });
    muted = true;
  });
}

async function readNewPassword(): Promise<string> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await promptHidden("New password: ");
    if ((await promptHidden("Repeat it: ")) !== password) throw new CliError("The two passwords differ.");
  } else {
    password = await readStdin();
  }
  const parsed = PasswordSchema.safeParse(password);
  if (!parsed.success) throw new CliError(`Password ${parsed.error.issues[0]!.message}.`);
  return parsed.data;
}

function parseEmail(value: string | undefined): string {
  const parsed = EmailSchema.safeParse(value ?? "");
  if (!parsed.success) throw new CliError(`Give the user's email address.\n\n${USAGE}`);
  return parsed.data;
}

async function requireUserByEmail(handle: DbHandle, email: string) {
  const user = await findUserByEmail(handle, email);
  if (!user) throw new CliError(`No user with the email ${email}.`);
  return user;
}

export async function runCli(args: string[], handle: DbHandle, config: Config): Promise<string> {
  const [command, ...rest] = args;
  switch (command) {
    case "rotate-encryption-key": {
      try {
        const r = await rotateStoredKeys({ db: handle.db, config }, { onBatch: (done) => process.stderr.write(`... ${done} rotated\n`) });
        return (
          `Stored keys: ${r.total}. Already under ENCRYPTION_KEY: ${r.alreadyCurrent}. Rotated now: ${r.rotated}. ` +
          `Rotated by another run meanwhile: ${r.byOthers}.` +
          (config.ENCRYPTION_KEY_PREVIOUS ? " Every key is now sealed under ENCRYPTION_KEY: ENCRYPTION_KEY_PREVIOUS can be removed." : "")
        );
      } catch (err) {
        if (err instanceof RotationRefused) throw new CliError(err.message);
        throw err;
      }
    }
    case "load-tickers": {
      const log = createLogger({ write: (line) => process.stderr.write(`${line}\n`) });
      try {
        const outcome = await loadTickers({ db: handle.db, config, fetch, log }, { force: true });
        if (outcome.status === "skipped") return "Another process is loading the ticker file right now; nothing done.";
        if (outcome.status === "refused")
          throw new CliError("REGULATOR_TICKERS_USER_AGENT names a code-hosting site: nothing was fetched and symbol search is empty.");
        return `Loaded ${outcome.rows} tickers.`;
      } catch (err) {
        if (err instanceof TickerFileError) throw new CliError(`The ticker file could not be loaded: ${err.message}. The previous table is kept.`);
        throw err;
      }
    }
    case "create-user": {
      const email = parseEmail(rest.find((a) => !a.startsWith("--")));
      const password = await readNewPassword();
      const user = await createUser(handle, { email, password }, { isAdmin: rest.includes("--admin") });
      return `Created ${user.email}${user.isAdmin ? " (admin)" : ""}.`;
    }
    case "reset-password": {
      const user = await requireUserByEmail(handle, parseEmail(rest[0]));
      const password = await readNewPassword();
      await setPassword(handle, user.id, password);
      const ended = await endUserSessions(handle, user.id);
      return `Password of ${user.email} changed; ${ended} session(s) ended.`;
    }
    case "promote-admin":
    case "demote-admin": {
      const email = parseEmail(rest[0]);
      const user = await setAdmin(handle, email, command === "promote-admin");
      if (!user) throw new CliError(`No user with the email ${email}.`);
      return `${user.email} is ${user.isAdmin ? "now an administrator" : "no longer an administrator"}.`;
    }
    case "list-admins": {
      const admins = await listAdmins(handle);
      return admins.length ? admins.map((a) => a.email).join("\n") : "No administrator. Make one with promote-admin <email>.";
    }
    case "revoke-sessions": {
      const user = await requireUserByEmail(handle, parseEmail(rest[0]));
      return `${await endUserSessions(handle, user.id)} session(s) of ${user.email} ended.`;
    }
    case "unlock-sign-in": {
      const email = parseEmail(rest[0]);
      const n = await unlockSignIn(handle, email);
      return n ? `Sign-in of ${email} unlocked (${n} failed sign-in(s) forgotten).` : `No failed sign-in is counted for ${email}: nothing to unlock.`;
    }
    case "disable-2fa": {
      const user = await requireUserByEmail(handle, parseEmail(rest[0]));
      return (await operatorDisableTwoFactor(handle, user.id, OPERATOR_CLI))
        ? `Two-factor sign-in of ${user.email} turned off (audited). They sign in with their password alone until they set it up again.`
        : `${user.email} has no two-factor sign-in on: nothing to turn off.`;
    }
    default:
      throw new CliError(USAGE);
  }
}

async function main() {
  const config = await loadNodeConfigOrExit();
  const handle = await createNodeDb(config.migrationDatabaseUrl, { poolSize: 1, transactionPooler: false });
  try {
    console.log(await runCli(process.argv.slice(2), handle, config));
  } catch (err) {
    if (err instanceof CliError || err instanceof AppError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    } else throw err;
  } finally {
    await handle.close();
  }
}

await main();
