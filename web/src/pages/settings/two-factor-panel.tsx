// Settings > Account, "Two-factor sign-in" (docs/auth.md, "Second factor"): set up an authenticator app from a
// QR code (or the secret typed in), confirm it with a code, keep the 10 backup codes (shown once: download or
// copy), replace them, or turn it off with the password and a code.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { encode } from "uqr";
import { api, unwrap } from "../../api/client.ts";
import { keys } from "../../api/queries.ts";
import { ErrorAlert, QueryView, StatusMessage, TextField } from "../../components/ui.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";

/** The otpauth URI as a QR code: one SVG path, dark modules only, with a quiet zone of 4 modules. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => {
    const qr = encode(value, { border: 0 });
    let d = "";
    qr.data.forEach((row, y) => row.forEach((dark, x) => dark && (d += `M${x + 4} ${y + 4}h1v1h-1z`)));
    return { size: qr.size + 8, path: d };
  }, [value]);
  return (
    <svg className="qr-code" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** The secret in groups of four, as authenticator apps show it when typed in. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

function BackupCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const text = `Trading Journal backup codes (each works once):\n\n${codes.join("\n")}\n`;
  const href = useMemo(() => URL.createObjectURL(new Blob([text], { type: "text/plain" })), [text]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <div className="backup-codes">
      <p>
        <strong>Save these backup codes now: they are shown only this once.</strong> Each signs you in once when you do not have your
        authenticator.
      </p>
      <ul className="backup-codes__list" aria-label="Backup codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="button-row">
        <a className="button button--secondary" href={href} download="trading-journal-backup-codes.txt">
          Download
        </a>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true), () => setCopied(false))}
        >
          Copy
        </button>
        <button type="button" className="button" onClick={onDone}>
          I have saved them
        </button>
      </div>
      <StatusMessage>{copied ? "Copied." : ""}</StatusMessage>
    </div>
  );
}

/** A code field with its submit: used by confirming, replacing codes and turning off. */
function useCodeForm() {
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const check = () => {
    const typed = code.trim();
    setProblem(typed ? undefined : "is required");
    return typed || null;
  };
  return { code, setCode, problem, check };
}

function SetUp({ onCodes }: { onCodes(codes: string[]): void }) {
  const queryClient = useQueryClient();
  const form = useCodeForm();
  const setup = useMutation({ mutationFn: () => unwrap(api.api.auth["2fa"].totp.setup.$post()) });
  const enable = useMutation({
    mutationFn: (code: string) => unwrap(api.api.auth["2fa"].totp.enable.$post({ json: { code } })),
    onSuccess: (body) => {
      onCodes(body.backupCodes);
      void queryClient.invalidateQueries({ queryKey: keys.twoFactor });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const code = form.check();
    if (code) enable.mutate(code);
  };
  if (!setup.data) {
    return (
      <>
        <p>
          Two-factor sign-in is <strong>off</strong>. With it on, signing in also asks for a code from an authenticator app on your phone
          (Google Authenticator, 1Password, Authy, Aegis and the like), so a stolen password alone does not open your journal.
        </p>
        <ErrorAlert error={setup.error} title="Could not start the setup." />
        <button type="button" className="button" disabled={setup.isPending} onClick={() => setup.mutate()}>
          Set up two-factor sign-in
        </button>
      </>
    );
  }
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Confirm two-factor sign-in">
      <p>1. Scan this QR code with your authenticator app, or type the secret in.</p>
      <div className="two-factor-setup">
        <QrCode value={setup.data.otpauthUri} label="QR code of your authenticator secret" />
        <p>
          Secret: <code className="two-factor-setup__secret">{grouped(setup.data.secret)}</code>
          <br />
          <span className="field__hint">Time-based, 6 digits, every 30 seconds.</span>
        </p>
      </div>
      <p>2. Type the code the app shows to turn two-factor sign-in on.</p>
      <ErrorAlert error={enable.error && !serverFieldErrors(enable.error).code ? enable.error : null} title="Two-factor sign-in was not turned on." />
      <TextField
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={form.code}
        onChange={(e) => form.setCode(e.target.value)}
        error={form.problem ?? serverFieldErrors(enable.error).code}
      />
      <div className="button-row">
        <button type="submit" className="button" disabled={enable.isPending}>
          Turn on
        </button>
      </div>
    </form>
  );
}

function NewBackupCodes({ onCodes }: { onCodes(codes: string[]): void }) {
  const queryClient = useQueryClient();
  const form = useCodeForm();
  const renew = useMutation({
    mutationFn: (code: string) => unwrap(api.api.auth["2fa"]["backup-codes"].$post({ json: { code } })),
    onSuccess: (body) => {
      form.setCode("");
      onCodes(body.backupCodes);
      void queryClient.invalidateQueries({ queryKey: keys.twoFactor });
    },
  });
  return (
    <form
      className="form"
      aria-label="New backup codes"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const code = form.check();
        if (code) renew.mutate(code);
      }}
    >
      <h3>New backup codes</h3>
      <ErrorAlert error={renew.error && !serverFieldErrors(renew.error).code ? renew.error : null} title="No new codes were made." />
      <TextField
        label="Code from the app"
        autoComplete="one-time-code"
        value={form.code}
        onChange={(e) => form.setCode(e.target.value)}
        error={form.problem ?? serverFieldErrors(renew.error).code}
        hint="The old backup codes stop working."
      />
      <div className="button-row">
        <button type="submit" className="button button--secondary" disabled={renew.isPending}>
          Make new backup codes
        </button>
      </div>
    </form>
  );
}

function TurnOff() {
  const queryClient = useQueryClient();
  const form = useCodeForm();
  const [password, setPassword] = useState("");
  const [passwordProblem, setPasswordProblem] = useState<string | undefined>();
  const off = useMutation({
    mutationFn: (json: { password: string; code: string }) => unwrap(api.api.auth["2fa"].$delete({ json })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.twoFactor }),
  });
  const server = serverFieldErrors(off.error);
  return (
    <form
      className="form"
      aria-label="Turn off two-factor sign-in"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setPasswordProblem(password ? undefined : "is required");
        const code = form.check();
        if (code && password) off.mutate({ password, code });
      }}
    >
      <h3>Turn it off</h3>
      <ErrorAlert error={off.error && !server.code && !server.password ? off.error : null} title="Two-factor sign-in is still on." />
      <TextField label="Your password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={passwordProblem ?? server.password} />
      <TextField
        label="Code from the app or a backup code"
        autoComplete="one-time-code"
        value={form.code}
        onChange={(e) => form.setCode(e.target.value)}
        error={form.problem ?? server.code}
      />
      <div className="button-row">
        <button type="submit" className="button button--danger" disabled={off.isPending}>
          Turn off two-factor sign-in
        </button>
      </div>
    </form>
  );
}

export function TwoFactorPanel() {
  const status = useQuery({ queryKey: keys.twoFactor, queryFn: () => unwrap(api.api.auth["2fa"].$get()) });
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <section className="panel" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {codes ? (
        <BackupCodes codes={codes} onDone={() => setCodes(null)} />
      ) : (
        <QueryView query={status} label="two-factor sign-in">
          {(s) =>
            s.enabled ? (
              <>
                <p>
                  Two-factor sign-in is <strong>on</strong>
                  {s.enabledAt ? ` since ${formatDateTime(s.enabledAt)}` : ""}. Backup codes left: {s.backupCodesLeft} of 10.
                </p>
                <NewBackupCodes onCodes={setCodes} />
                <TurnOff />
              </>
            ) : (
              <SetUp onCodes={setCodes} />
            )
          }
        </QueryView>
      )}
    </section>
  );
}
