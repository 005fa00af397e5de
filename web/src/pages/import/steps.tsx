// The CSV import wizard's steps (docs/imports.md): 1. the file, 2. its format (a preset found, or the mapping) and
// options, 3. the preview and its commit. Each shows the state of useImportWizard (wizard.ts).
import { useId, type ReactNode } from "react";
import { ApiError, asApiError } from "../../api/errors.ts";
import { ErrorAlert, SelectField, TextField, fieldMessage, ErrorReference } from "../../components/ui.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { PROVIDER_NAMES } from "../../lib/providers.ts";
import { TARGET_FIELDS, presetColumns } from "./detect.ts";
import { PreviewView } from "./preview.tsx";
import { formatBytes, type PreviewResult } from "./upload.ts";
import { MANUAL, DATE_FORMAT_CHOICES, DELIMITER_CHOICES, type ImportWizardState, type OptionsForm } from "./wizard.ts";

/** Step 1: the file, dropped or chosen. */
export function FileStep({ w }: { w: ImportWizardState }) {
  const { fileInputId, dropHintId, dragging, setDragging, sniff, fileError, onFile, busy, presets } = w;
  return (
    <>
      <section className="panel" aria-labelledby="import-file-heading">
        <h2 id="import-file-heading">1. Choose the file</h2>
        <div
          className={`dropzone${dragging ? " dropzone--active" : ""}`}
          onDragEnter={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragOver={(e) => {
            e.preventDefault();
            e.dataTransfer.dropEffect = "copy";
          }}
          onDragLeave={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
          }}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            if (!busy) void onFile(e.dataTransfer.files[0]);
          }}
        >
          <label htmlFor={fileInputId} className="dropzone__label">
            CSV file
          </label>
          <p id={dropHintId} className="field__hint">
            Drag your broker&apos;s CSV export here, or choose it. UTF-8 text; the format is recognised from its header row.
          </p>
          {presets.length > 0 && (
            <p className="field__hint" data-testid="import-formats">
              Recognised formats: {presets.map((p) => p.name).join(", ")}. Any other CSV can be imported by mapping its columns.
            </p>
          )}
          <input
            id={fileInputId}
            type="file"
            accept=".csv,.txt,text/csv"
            aria-describedby={dropHintId}
            disabled={busy}
            onChange={(e) => {
              void onFile(e.target.files?.[0]);
              // Cleared so that choosing the same file again (after a commit or a fix in the file) is a change.
              e.target.value = "";
            }}
          />
          {sniff && (
            <p className="dropzone__file">
              Selected: <strong>{sniff.file.name}</strong> ({formatBytes(sniff.file.size)})
            </p>
          )}
          {fileError && (
            <p className="field__error" role="alert">
              {fileError}
            </p>
          )}
        </div>
      </section>
    </>
  );
}

/** Step 2: the format found (or chosen, or mapped by hand), the options, and the preview asked for. */
export function FormatStep({ w }: { w: ImportWizardState }) {
  const {
    fileInputId, sniff, format, detected, selection, setSelection, carried, opts, problems, upload, previewError,
    suggested, sample, abortRef, zones, preset, columnChoices, missing, needsTradeDate, commit, modelKey, askModel,
    onFormatChange, runPreview, problemFor, busy, setOpt, account, presets,
  } = w;
  return (
    <>
      {sniff && (
        <section className="panel" aria-labelledby="import-format-heading">
          <h2 id="import-format-heading">2. Check the format</h2>
          {detected ? (
            <p className="import-detected">
              Detected format: <strong>{detected.preset.name}</strong>
              {detected.score < 1 && ` (${Math.round(detected.score * 100)}% of its header columns found)`}.
            </p>
          ) : (
            <p className="import-detected">No known broker format matched this file&apos;s header row. Map its columns below.</p>
          )}
          <SelectField label="Format" value={format} onChange={(e) => onFormatChange(e.target.value)}>
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            <option value={MANUAL}>Manual column mapping</option>
          </SelectField>
          {preset && missing.length > 0 && (
            <p className="notice" role="note">
              This file&apos;s header has no {missing.map((m) => `“${m}”`).join(", ")} column{missing.length > 1 ? "s" : ""}, which this format reads.
              Choose another format or map the columns by hand.
            </p>
          )}
          {preset && (
            <p className="field__hint">
              Columns read: {presetColumns(preset).filter((c, i, all) => all.indexOf(c) === i).join(", ")}.
            </p>
          )}

          {format === MANUAL && (
            <fieldset className="mapping">
              <legend>Column mapping</legend>
              <label className="checkbox">
                <input type="checkbox" checked={opts.hasHeader} onChange={(e) => setOpt("hasHeader", e.target.checked)} /> The first row is a
                header row
              </label>
              {suggested?.source === "saved" ? (
                <p className="notice" role="status">
                  Your mapping for this layout{suggested.savedAt ? `, last used ${formatDateTime(suggested.savedAt, account.timezone)}` : ""}. Check it, then preview.
                </p>
              ) : suggested?.source === "rules" ? (
                <div className="notice" role="status">
                  <p>Suggested from the column names and the first rows: check each column before previewing.</p>
                  {suggested.notes.length > 0 && (
                    <ul>
                      {suggested.notes.map((n) => (
                        <li key={n}>{n}</li>
                      ))}
                    </ul>
                  )}
                </div>
              ) : suggested?.source === "model" ? (
                <div className="notice" role="status">
                  <p>{suggested.notes[0]}</p>
                  {suggested.notes.length > 1 && (
                    <ul>
                      {suggested.notes.slice(1).map((n) => (
                        <li key={n}>{n}</li>
                      ))}
                    </ul>
                  )}
                </div>
              ) : null}
              {modelKey && sample && suggested?.source !== "saved" && (
                <div className="model-ask">
                  <p className="field__hint" id="model-ask-hint">
                    Not right? Your model can read the columns: this sends the column names and the first 5 rows of the file to{" "}
                    {PROVIDER_NAMES[modelKey.provider] ?? modelKey.provider}, with your key.
                  </p>
                  <button
                    type="button"
                    className="button button--secondary"
                    aria-describedby="model-ask-hint"
                    disabled={askModel.isPending}
                    onClick={() => askModel.mutate({ provider: modelKey.provider, header: sample.header, rows: sample.rows })}
                  >
                    {askModel.isPending ? "Asking…" : `Ask ${PROVIDER_NAMES[modelKey.provider] ?? modelKey.provider}`}
                  </button>
                  <ErrorAlert error={askModel.error} title="Your model could not suggest a mapping." />
                </div>
              )}
              {Object.keys(carried.options).length > 0 && suggested?.source !== "saved" && (
                <p className="field__hint">Also applies the row filters and settings of the format this mapping started from.</p>
              )}
              {problems.length > 0 && (
                <div className="alert alert--error" role="alert">
                  <p className="alert__title">The mapping needs attention.</p>
                  <ul>
                    {problems.map((p) => (
                      <li key={p.field + p.message}>{fieldMessage(TARGET_FIELDS.find((f) => f.key === p.field)!.label, p.message)}</li>
                    ))}
                  </ul>
                </div>
              )}
              <div className="mapping__grid">
                {TARGET_FIELDS.map((f) => (
                  <SelectField
                    key={f.key}
                    label={f.label}
                    hint={f.hint || undefined}
                    error={problemFor(f.key)}
                    value={selection[f.key]}
                    onChange={(e) => setSelection((s) => ({ ...s, [f.key]: e.target.value }))}
                  >
                    <option value="">— not in this file —</option>
                    {columnChoices.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                    {selection[f.key] && !columnChoices.some((c) => c.value === selection[f.key]) && (
                      <option value={selection[f.key]}>{selection[f.key]} (not in this file)</option>
                    )}
                  </SelectField>
                ))}
              </div>
              <label className="checkbox">
                <input type="checkbox" checked={opts.sideFromQuantitySign} onChange={(e) => setOpt("sideFromQuantitySign", e.target.checked)} />{" "}
                No side column: a negative quantity means sell
              </label>
            </fieldset>
          )}

          <fieldset className="import-options">
            <legend>How to read the values</legend>
            <div className="form form--inline">
              <SelectField label="Date format" value={opts.dateFormat} onChange={(e) => setOpt("dateFormat", e.target.value as OptionsForm["dateFormat"])}>
                {DATE_FORMAT_CHOICES.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Number format"
                value={opts.numberFormat}
                onChange={(e) => setOpt("numberFormat", e.target.value as OptionsForm["numberFormat"])}
              >
                <option value="1,234.56">1,234.56 (dot for decimals)</option>
                <option value="1.234,56">1.234,56 (comma for decimals)</option>
              </SelectField>
              <SelectField
                label="Time zone of times without an offset"
                value={opts.timezone}
                onChange={(e) => setOpt("timezone", e.target.value)}
              >
                <option value="">The account&apos;s ({account.timezone})</option>
                {zones.map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Delimiter"
                value={opts.delimiter}
                onChange={(e) => setOpt("delimiter", e.target.value as OptionsForm["delimiter"])}
                hint={opts.delimiter ? undefined : `Looks like ${DELIMITER_CHOICES.find((c) => c.value === sniff.detectedDelimiter)?.label ?? "comma"}.`}
              >
                {DELIMITER_CHOICES.map((c) => (
                  <option key={c.label} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </SelectField>
              {needsTradeDate && (
                <TextField
                  label="Trade date"
                  type="date"
                  value={opts.tradeDate}
                  onChange={(e) => setOpt("tradeDate", e.target.value)}
                  hint="This file has times only: the day they belong to."
                  error={problemFor("tradeDate")}
                />
              )}
            </div>
          </fieldset>

          <div className="button-row import-actions">
            <button type="button" className="button" onClick={() => void runPreview()} disabled={busy || commit.isPending}>
              {busy ? "Previewing…" : "Preview import"}
            </button>
            {busy && (
              <button type="button" className="button button--secondary" onClick={() => abortRef.current?.abort()}>
                Cancel upload
              </button>
            )}
          </div>
          {upload.phase !== "idle" && (
            <div className="upload-progress">
              <label htmlFor={`${fileInputId}-progress`}>{upload.phase === "uploading" ? "Upload progress" : "Checking the rows"}</label>
              <progress
                id={`${fileInputId}-progress`}
                {...(upload.phase === "uploading" ? { value: upload.loaded, max: upload.total } : {})}
              />
              {upload.phase === "uploading" && (
                <span className="muted">
                  {formatBytes(upload.loaded)} of {formatBytes(upload.total)}
                </span>
              )}
            </div>
          )}
          <PreviewErrorAlert error={previewError} />
        </section>
      )}
    </>
  );
}

/** Step 3: the preview, and its commit or discard. */
export function PreviewStep({ w }: { w: ImportWizardState }) {
  const {
    sniff, preview, setPreview, includeDuplicates, setIncludeDuplicates, setAnnounce, previewHeadingRef,
    discardStaged, commit, runPreview, commitError, nothingToImport, account,
  } = w;
  return (
    <>
      {preview && sniff && (
        <section className="panel" aria-labelledby="import-preview-heading">
          <h2 id="import-preview-heading" tabIndex={-1} ref={previewHeadingRef}>
            3. Preview of {sniff.file.name}
          </h2>
          <p className="muted">
            Nothing is saved yet. This preview is kept until {formatDateTime(preview.expiresAt, account.timezone)}; commit before then.
          </p>
          <PreviewView preview={preview} currency={account.currency} timeZone={account.timezone} />
          <CommitControls
            preview={preview}
            includeDuplicates={includeDuplicates}
            setIncludeDuplicates={setIncludeDuplicates}
            disabled={nothingToImport || commit.isPending}
            pending={commit.isPending}
            onCommit={() => commit.mutate({ importId: preview.importId, includeDuplicates })}
            onDiscard={() => {
              discardStaged(preview.importId);
              setPreview(null);
              commit.reset();
              setAnnounce("Preview discarded.");
            }}
          >
            {commitError && <CommitErrorAlert error={commitError} onPreviewAgain={() => void runPreview()} />}
          </CommitControls>
        </section>
      )}
    </>
  );
}

function PreviewErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  const e = asApiError(error);
  return (
    <div className="alert alert--error" role="alert">
      <p className="alert__title">The file could not be previewed.</p>
      <p>{e.message}</p>
      {e.fields.length > 0 && (
        <ul>
          {e.fields.map((f, i) => (
            <li key={i}>
              {f.path.replace(/^request\./, "")}: {f.message}
            </li>
          ))}
        </ul>
      )}
      <ErrorReference requestId={e.requestId} />
    </div>
  );
}

function CommitControls(props: {
  preview: PreviewResult;
  includeDuplicates: boolean;
  setIncludeDuplicates: (v: boolean) => void;
  disabled: boolean;
  pending: boolean;
  onCommit: () => void;
  onDiscard: () => void;
  children?: ReactNode;
}) {
  const { summary } = props.preview;
  const hintId = useId();
  return (
    <div className="import-commit">
      <h3>4. Commit</h3>
      {summary.duplicate > 0 && (
        <div className="field">
          <label className="checkbox">
            <input type="checkbox" checked={props.includeDuplicates} onChange={(e) => props.setIncludeDuplicates(e.target.checked)} aria-describedby={hintId} />{" "}
            Also import the duplicates
          </label>
          <p className="field__hint" id={hintId}>
            {summary.duplicate} {summary.duplicate === 1 ? "fill looks" : "fills look"} already imported. Duplicates found by execution ID are
            always skipped; the others (same symbol, time, side, quantity and price) are imported only when this is ticked.
          </p>
        </div>
      )}
      {summary.toImport === 0 && !props.includeDuplicates && <p>There is nothing new to import from this file.</p>}
      {props.children}
      <div className="button-row">
        <button type="button" className="button" onClick={props.onCommit} disabled={props.disabled}>
          {props.pending ? "Importing…" : "Commit import"}
        </button>
        <button type="button" className="button button--secondary" onClick={props.onDiscard} disabled={props.pending}>
          Discard preview
        </button>
      </div>
    </div>
  );
}

function CommitErrorAlert({ error, onPreviewAgain }: { error: ApiError; onPreviewAgain: () => void }) {
  if (error.code === "GONE") {
    return (
      <div className="alert alert--error" role="alert">
        <p className="alert__title">This preview has expired.</p>
        <p>Previews are kept for a limited time. Preview the file again, then commit.</p>
        <button type="button" className="button button--secondary button--small" onClick={onPreviewAgain}>
          Preview again
        </button>
      </div>
    );
  }
  if (error.code === "CONFLICT") {
    return (
      <div className="alert alert--error" role="alert">
        <p className="alert__title">This import was already committed.</p>
        <p>{error.message} See the import history below.</p>
      </div>
    );
  }
  return <ErrorAlert error={error} title="Could not commit the import." />;
}
