// Structured one-line JSON logs. Nothing personal or secret belongs in `fields`: callers pass ids and
// counts, and values that look like secrets or email addresses are masked as a last line of defence.

export type LogLevel = "debug" | "info" | "warn" | "error";
export type Logger = {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

const EMAIL = /[^\s@"']+@[^\s@"']+\.[^\s@"']+/g;
const SECRET_KEY = /(secret|password|passwd|token|api[_-]?key|authorization|cookie)/i;

export function redact(value: unknown, key = ""): unknown {
  if (SECRET_KEY.test(key)) return "[redacted]";
  if (typeof value === "string") return value.replace(EMAIL, "[email]");
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

export function createLogger(options: { silent?: boolean; write?: (line: string) => void } = {}): Logger {
  const write = options.write ?? ((line: string) => console.log(line));
  const log = (level: LogLevel, message: string, fields: Record<string, unknown> = {}) => {
    if (options.silent) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, message, ...(redact(fields) as object) }));
  };
  return {
    log,
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
  };
}
