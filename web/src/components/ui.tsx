import { useId, type ReactNode, type InputHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { asApiError, type ApiError } from "../api/errors.ts";
import { zoneNote } from "../lib/zoned-input.ts";

/**
 * A field message as a sentence: the API and the schemas say "must not be empty", the reader sees
 * "Name must not be empty."
 */
export function fieldMessage(label: string, message: string): string {
  const text = /^[a-z]/.test(message) ? `${label} ${message}` : message;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

type FieldShell = { label: string; error?: string | undefined; hint?: ReactNode; children: (ids: FieldIds) => ReactNode; className?: string };
type FieldIds = { id: string; "aria-invalid": boolean | undefined; "aria-describedby": string | undefined };

/** Label, control, hint and error wired together by id; the error is announced with the control. */
export function Field({ label, error, hint, children, className }: FieldShell) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " field--invalid" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {fieldMessage(label, error)}
        </p>
      )}
    </div>
  );
}

type Labelled = { label: string; error?: string | undefined; hint?: ReactNode };

export function TextField({ label, error, hint, className, ...input }: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(ids) => <input {...input} {...ids} />}
    </Field>
  );
}

export function SelectField({ label, error, hint, className, children, ...select }: Labelled & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(ids) => (
        <select {...select} {...ids}>
          {children}
        </select>
      )}
    </Field>
  );
}

export function TextAreaField({ label, error, hint, className, ...area }: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(ids) => <textarea {...area} {...ids} />}
    </Field>
  );
}

/**
 * Errors that belong to no single field. Field errors are shown next to their fields, so here they only
 * get a short summary.
 */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const e: ApiError = asApiError(error);
  const message = e.fields.length > 0 && e.code === "VALIDATION_ERROR" ? "Some fields need attention." : e.message;
  return (
    <div className="alert alert--error" role="alert">
      {title && <p className="alert__title">{title}</p>}
      <p>{message}</p>
      <ErrorReference requestId={e.requestId} />
    </div>
  );
}

/** The request id of a failed request, behind a "Details" disclosure: for a report, not in the reader's way. */
export function ErrorReference({ requestId }: { requestId: string | null | undefined }) {
  if (!requestId) return null;
  return (
    <details className="alert__meta">
      <summary>Details</summary>
      <p>
        Reference for a problem report: <code>{requestId}</code>
      </p>
    </details>
  );
}

/** Polite live region for async progress and outcomes ("Saving…", "Deposit recorded."). */
export function StatusMessage({ children }: { children?: ReactNode }) {
  return (
    <p className="status-message" role="status" aria-live="polite">
      {children}
    </p>
  );
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <section className="empty-state" aria-label={title}>
      <h2>{title}</h2>
      {children}
      {action && <div className="empty-state__action">{action}</div>}
    </section>
  );
}

/** Renders a query's loading and error states, and its data once there. */
export function QueryView<T>({ query, label, children }: { query: UseQueryResult<T>; label?: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading label={label ? `Loading ${label}…` : undefined} />;
  if (query.isError)
    return (
      <div>
        <ErrorAlert error={query.error} title={label ? `Could not load ${label}.` : "Could not load this page."} />
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  return <>{children(query.data)}</>;
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-header__actions">{children}</div>}
    </div>
  );
}

/** Says once which zone a page's times are in (every time on it is shown in that one zone). */
export function ZoneNote({ zone }: { zone: string | undefined }) {
  return <p className="muted zone-note">{zoneNote(zone)}</p>;
}
