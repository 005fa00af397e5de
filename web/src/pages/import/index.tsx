import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import type { ImportMapping, ImportOptions, ImportRequest } from "../../../../lib/imports/schema.ts";
import { api, apiFetch, unwrap } from "../../api/client.ts";
import { ApiError, asApiError } from "../../api/errors.ts";
import { EmptyState, ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage, TextField, fieldMessage, ErrorReference } from "../../components/ui.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { PROVIDER_NAMES } from "../../lib/providers.ts";
import { useAccountParam } from "./accounts.ts";
import { useAccounts, type Account } from "../../api/queries.ts";
import {
  TARGET_FIELDS,
  buildMapping,
  detectDelimiter,
  detectPreset,
  emptySelection,
  findHeaderRow,
  guessSelection,
  numberedColumns,
  parseCsvRows,
  presetColumns,
  readFileStart,
  selectionFromMapping,
  type Delimiter,
  type MappingProblem,
  type MappingSelection,
  type PresetLike,
  type PresetMatch,
} from "./detect.ts";
import { ImportHistory, historyKey, invalidateAfterImport } from "./history.tsx";
import { PreviewView } from "./preview.tsx";
import { formatBytes, uploadPreview, type PreviewResult } from "./upload.ts";
import "./import.css";

const MANUAL = "manual";

const DATE_FORMAT_CHOICES: { value: NonNullable<ImportOptions["dateFormat"]>; label: string }[] = [
  { value: "iso", label: "ISO 8601 (2024-01-19T09:30:15)" },
  { value: "MM/DD/YYYY", label: "MM/DD/YYYY (01/19/2024 9:30:15 AM)" },
  { value: "DD/MM/YYYY", label: "DD/MM/YYYY (19/01/2024 09:30:15)" },
  { value: "YYYYMMDD", label: "YYYYMMDD (20240119 093015)" },
];

const DELIMITER_CHOICES: { value: "" | Delimiter; label: string }[] = [
  { value: "", label: "Detect automatically" },
  { value: ",", label: "Comma ( , )" },
  { value: ";", label: "Semicolon ( ; )" },
  { value: "\t", label: "Tab" },
  { value: "|", label: "Pipe ( | )" },
];

type OptionsForm = {
  dateFormat: NonNullable<ImportOptions["dateFormat"]>;
  numberFormat: NonNullable<ImportOptions["numberFormat"]>;
  timezone: string;
  delimiter: "" | Delimiter;
  hasHeader: boolean;
  sideFromQuantitySign: boolean;
  tradeDate: string;
};

const defaultOptions = (): OptionsForm => ({
  dateFormat: "iso",
  numberFormat: "1,234.56",
  timezone: "",
  delimiter: "",
  hasHeader: true,
  sideFromQuantitySign: false,
  tradeDate: "",
});

/** The preset's options the form shows, so the reader sees (and may change) what the preset assumes. */
function optionsFromPreset(preset: PresetLike, current: OptionsForm): OptionsForm {
  return {
    ...current,
    dateFormat: preset.options.dateFormat ?? "iso",
    numberFormat: preset.options.numberFormat ?? "1,234.56",
    delimiter: preset.options.delimiter ?? "",
    hasHeader: true,
    sideFromQuantitySign: preset.options.sideFromQuantitySign ?? false,
  };
}

/** What a preset brings that the form does not show (row filters, header search, side words...), kept when its mapping is edited. */
function hiddenPresetOptions(preset: PresetLike): ImportOptions {
  const { dateFormat: _d, numberFormat: _n, delimiter: _l, hasHeader: _h, sideFromQuantitySign: _s, timezone: _t, tradeDate: _r, ...rest } = preset.options;
  return rest;
}

type Sniff = { file: File; text: string; complete: boolean; detectedDelimiter: Delimiter };

type Upload = { phase: "idle" } | { phase: "uploading"; loaded: number; total: number } | { phase: "checking" };

function timeZoneChoices(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
}

function usePresets() {
  return useQuery({
    queryKey: ["csv-import", "presets"],
    queryFn: () => unwrap(api.api["csv-import"].presets.$get()),
    staleTime: Infinity,
  });
}

export function ImportPage() {
  const accounts = useAccounts();
  const presets = usePresets();
  const { accountId, account, setAccountId } = useAccountParam(accounts.data?.accounts);
  const presetNames = useMemo(() => Object.fromEntries((presets.data?.presets ?? []).map((p) => [p.id, p.name])), [presets.data]);

  return (
    <>
      <PageHeader title="Import trades" />
      <QueryView query={accounts} label="accounts">
        {({ accounts: list }) =>
          list.length === 0 ? (
            <EmptyState title="Create an account first" action={<Link to="/accounts" className="button">Go to accounts</Link>}>
              <p>Imported fills go into one of your trading accounts.</p>
            </EmptyState>
          ) : (
            <>
              <div className="panel import-account">
                <SelectField label="Account" value={accountId} onChange={(e) => setAccountId(e.target.value)} hint="The fills are added to this account and its cash ledger.">
                  {list.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name} ({a.currency})
                    </option>
                  ))}
                </SelectField>
              </div>
              <QueryView query={presets} label="import formats">
                {(data) => account && <ImportWizard key={account.id} account={account} presets={data.presets} />}
              </QueryView>
              {account && <ImportHistory accountId={account.id} presetNames={presetNames} timeZone={account.timezone} />}
            </>
          )
        }
      </QueryView>
    </>
  );
}

function progressText(upload: Upload, fileName: string): string {
  if (upload.phase === "uploading") {
    const pct = upload.total > 0 ? Math.floor((upload.loaded / upload.total) * 10) * 10 : 0;
    return `Uploading ${fileName}: ${pct}%`;
  }
  if (upload.phase === "checking") return "Upload complete. Checking the rows…";
  return "";
}

/** A failed preview: the message, and the request fields the server named (mapping columns, options). */
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

function ImportWizard({ account, presets }: { account: Account; presets: readonly PresetLike[] }) {
  const queryClient = useQueryClient();
  const fileInputId = useId();
  const dropHintId = useId();
  const [dragging, setDragging] = useState(false);
  const [sniff, setSniff] = useState<Sniff | null>(null);
  const [fileError, setFileError] = useState("");
  const [format, setFormat] = useState("");
  const [detected, setDetected] = useState<PresetMatch | null>(null);
  const [selection, setSelection] = useState<MappingSelection>(emptySelection);
  const [carried, setCarried] = useState<{ options: ImportOptions; extraFees?: string[] }>({ options: {} });
  const [opts, setOpts] = useState<OptionsForm>(defaultOptions);
  const [problems, setProblems] = useState<MappingProblem[]>([]);
  const [upload, setUpload] = useState<Upload>({ phase: "idle" });
  const [preview, setPreview] = useState<PreviewResult | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const [includeDuplicates, setIncludeDuplicates] = useState(false);
  const [announce, setAnnounce] = useState("");
  // Where the manual mapping came from (docs/imports.md, "Any CSV"): the account's saved one, or the rules.
  const [suggested, setSuggested] = useState<{ source: "saved" | "rules" | "model"; savedAt: string | null; notes: string[] } | null>(null);
  // The header and first rows of a file no preset reads, for the trader's model when they ask for it.
  const [sample, setSample] = useState<{ header: string[]; rows: string[][] } | null>(null);
  const suggestRun = useRef(0);
  const abortRef = useRef<AbortController | null>(null);
  const previewHeadingRef = useRef<HTMLHeadingElement>(null);
  const doneRef = useRef<HTMLElement>(null);
  const zones = useMemo(timeZoneChoices, []);

  const preset = presets.find((p) => p.id === format);
  const delimiter: Delimiter = opts.delimiter || sniff?.detectedDelimiter || ",";
  const rows = useMemo(() => (sniff ? parseCsvRows(sniff.text, delimiter, !sniff.complete) : []), [sniff, delimiter]);
  const headerRowContains = preset ? preset.options.headerRowContains : carried.options.headerRowContains;
  const header = useMemo(() => findHeaderRow(rows, headerRowContains)?.cells ?? [], [rows, headerRowContains]);
  const firstRow = useMemo(() => rows.find((r) => r.some((c) => c.trim() !== "")) ?? [], [rows]);
  const columnChoices = opts.hasHeader
    ? [...new Set(header.filter((h) => h !== ""))].map((h) => ({ value: h, label: h }))
    : numberedColumns(firstRow);
  const missing = preset ? presetColumns(preset).filter((c) => !header.some((h) => h.toLowerCase() === c.toLowerCase()) && !(/^\d+$/.test(c) && Number(c) <= header.length)) : [];
  const effectiveMapping: Partial<ImportMapping> = preset ? preset.mapping : selection;
  const needsTradeDate = Boolean(effectiveMapping.time) && !effectiveMapping.date && !effectiveMapping.executedAt;

  const discardStaged = (importId: string) => {
    // Best effort: an abandoned preview would otherwise wait for the purge job.
    void apiFetch(`/api/csv-import/${importId}`, { method: "DELETE" }).catch(() => undefined);
  };

  const commit = useMutation({
    mutationFn: (body: { importId: string; includeDuplicates: boolean }) => unwrap(api.api["csv-import"].commit.$post({ json: body })),
    onSuccess: async (item) => {
      setPreview(null);
      setSniff(null);
      setAnnounce(`Imported ${item.fillsCreated} ${item.fillsCreated === 1 ? "fill" : "fills"} from ${item.fileName ?? "the file"}.`);
      await invalidateAfterImport(queryClient, account.id);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === "CONFLICT") void queryClient.invalidateQueries({ queryKey: historyKey(account.id) });
      setAnnounce("");
    },
  });

  useEffect(() => {
    if (commit.isSuccess) doneRef.current?.focus();
  }, [commit.isSuccess]);

  // The trader's own model, when they ask (docs/imports.md, "Any CSV"): it sees the header and the first five rows.
  const modelKeys = useQuery({ queryKey: ["advisor", "keys"], queryFn: () => unwrap(api.api.advisor["provider-keys"].$get()), enabled: format === MANUAL && sample !== null });
  const modelKey = modelKeys.data?.keys[0];
  const askModel = useMutation({
    mutationFn: (ask: { provider: string; header: string[]; rows: string[][] }) =>
      unwrap(
        api.api.advisor["import-mapping"].$post({
          json: { provider: ask.provider as "openai", header: ask.header.slice(0, 200), rows: ask.rows.slice(0, 5).map((r) => r.slice(0, 200).map((c) => c.slice(0, 500))) },
        }),
      ),
    onSuccess: (answer) => {
      suggestRun.current++;
      applySuggestion(answer);
    },
  });

  function applyPreset(p: PresetLike) {
    suggestRun.current++;
    setSuggested(null);
    setFormat(p.id);
    setOpts((o) => optionsFromPreset(p, o));
    setCarried({ options: {} });
    setProblems([]);
  }

  function applyManual(start: MappingSelection, from?: PresetLike) {
    setFormat(MANUAL);
    setSelection(start);
    setCarried(from ? { options: hiddenPresetOptions(from), ...(from.mapping.extraFees ? { extraFees: from.mapping.extraFees } : {}) } : { options: {} });
    setProblems([]);
  }

  async function onFile(file: File | undefined) {
    setFileError("");
    setPreviewError(null);
    commit.reset();
    if (preview) discardStaged(preview.importId);
    setPreview(null);
    if (!file) return;
    if (file.size === 0) {
      setSniff(null);
      setFileError("The file is empty.");
      return;
    }
    const { text, complete } = await readFileStart(file);
    const detectedDelimiter = detectDelimiter(text);
    const parsed = parseCsvRows(text, detectedDelimiter, !complete);
    const match = detectPreset(parsed, presets);
    setSniff({ file, text, complete, detectedDelimiter });
    setDetected(match);
    setSuggested(null);
    setSample(null);
    askModel.reset();
    setOpts((o) => ({ ...defaultOptions(), timezone: o.timezone }));
    if (match) {
      applyPreset(match.preset);
      // Said once, in step 2 ("Detected format: ..."); the live region only says where to look.
      setAnnounce("File read. Check its format in step 2.");
    } else {
      const found = findHeaderRow(parsed);
      const first = found?.cells ?? [];
      applyManual(guessSelection(first));
      setAnnounce("File read. Map its columns in step 2.");
      if (found) {
        const rows = parsed.slice(found.index + 1, found.index + 21);
        setSample({ header: first, rows });
        void suggestMapping(first, rows);
      }
    }
  }

  /** A suggestion (the saved mapping, the rules' or the model's) put into the mapping form, to confirm. */
  function applySuggestion(answer: { mapping: unknown; options: unknown; notes: string[]; source: "saved" | "rules" | "model"; savedAt: string | null }) {
    const { dateFormat, numberFormat, sideFromQuantitySign, delimiter, timezone, hasHeader: _header, ...rest } = answer.options as ImportOptions;
    setSelection(selectionFromMapping(answer.mapping as ImportMapping));
    setOpts((o) => ({
      ...o,
      ...(dateFormat ? { dateFormat } : {}),
      ...(numberFormat ? { numberFormat } : {}),
      ...(delimiter ? { delimiter } : {}),
      ...(timezone ? { timezone } : {}),
      sideFromQuantitySign: sideFromQuantitySign === true,
    }));
    setCarried({ options: rest, ...((answer.mapping as ImportMapping).extraFees ? { extraFees: (answer.mapping as ImportMapping).extraFees } : {}) });
    setSuggested({ source: answer.source, savedAt: answer.savedAt, notes: answer.notes });
  }

  /** The account's saved mapping for this header, else the server's suggestion from the names and the first rows. */
  async function suggestMapping(header: string[], sample: string[][]) {
    const run = ++suggestRun.current;
    try {
      const answer = await unwrap(api.api["csv-import"].suggest.$post({ json: { accountId: account.id, header: header.slice(0, 200), rows: sample.map((r) => r.slice(0, 200).map((c) => c.slice(0, 500))) } }));
      if (run !== suggestRun.current) return; // another file since
      applySuggestion(answer);
    } catch {
      // The guess from the names alone stays; the trader maps the rest.
    }
  }

  function onFormatChange(value: string) {
    if (value === MANUAL) {
      suggestRun.current++;
      setSuggested(null);
      const start = preset ? selectionFromMapping(preset.mapping) : guessSelection(header);
      applyManual(start, preset);
    } else {
      const p = presets.find((x) => x.id === value);
      if (p) applyPreset(p);
    }
  }

  function buildRequest(): ImportRequest | null {
    const options: ImportOptions = { dateFormat: opts.dateFormat, numberFormat: opts.numberFormat };
    if (opts.delimiter) options.delimiter = opts.delimiter;
    if (opts.timezone) options.timezone = opts.timezone;
    if (needsTradeDate && opts.tradeDate) options.tradeDate = opts.tradeDate;
    if (preset) {
      setProblems([]);
      return { accountId: account.id, presetId: preset.id, options };
    }
    const built = buildMapping(selection, {
      sideFromQuantitySign: opts.sideFromQuantitySign,
      tradeDate: opts.tradeDate,
      ...(carried.extraFees ? { extraFees: carried.extraFees } : {}),
    });
    setProblems(built.problems);
    if (!built.mapping) return null;
    return {
      accountId: account.id,
      mapping: built.mapping,
      options: {
        ...carried.options,
        ...options,
        hasHeader: opts.hasHeader,
        ...(opts.sideFromQuantitySign ? { sideFromQuantitySign: true } : {}),
      },
    };
  }

  async function runPreview() {
    if (!sniff) return;
    const request = buildRequest();
    if (!request) {
      setAnnounce("");
      return;
    }
    if (preview) discardStaged(preview.importId);
    setPreview(null);
    setPreviewError(null);
    commit.reset();
    setIncludeDuplicates(false);
    setAnnounce("");
    const controller = new AbortController();
    abortRef.current = controller;
    setUpload({ phase: "uploading", loaded: 0, total: sniff.file.size });
    try {
      const result = await uploadPreview(sniff.file, request, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => setUpload(loaded >= total ? { phase: "checking" } : { phase: "uploading", loaded, total }),
      });
      setPreview(result);
      const s = result.summary;
      setAnnounce(`Preview ready: ${s.toImport} ${s.toImport === 1 ? "fill" : "fills"} to import, ${s.invalid} ${s.invalid === 1 ? "row" : "rows"} with errors, ${s.duplicate} duplicate${s.duplicate === 1 ? "" : "s"}.`);
      requestAnimationFrame(() => previewHeadingRef.current?.focus());
    } catch (err) {
      if (err instanceof ApiError && err.code === "ABORTED") setAnnounce("Upload cancelled.");
      else setPreviewError(err);
    } finally {
      abortRef.current = null;
      setUpload({ phase: "idle" });
    }
  }

  const problemFor = (field: string) => problems.find((p) => p.field === field)?.message;
  const busy = upload.phase !== "idle";
  const commitError = commit.error ? asApiError(commit.error) : null;
  const nothingToImport = preview ? preview.summary.toImport === 0 && !(includeDuplicates && preview.summary.duplicate > 0) : true;
  const setOpt = <K extends keyof OptionsForm>(key: K, value: OptionsForm[K]) => setOpts((o) => ({ ...o, [key]: value }));

  return (
    <>
      <StatusMessage>{busy ? progressText(upload, sniff?.file.name ?? "the file") : commit.isPending ? "Importing…" : announce}</StatusMessage>

      {commit.isSuccess && (
        <section className="panel import-done" tabIndex={-1} ref={doneRef} aria-labelledby="import-done-heading">
          <h2 id="import-done-heading">Import complete</h2>
          <p>
            {commit.data.fillsCreated} {commit.data.fillsCreated === 1 ? "fill was" : "fills were"} added to {account.name}. Trades, the
            ledger and your statistics are updated.
          </p>
          <div className="button-row">
            <Link to="/trades" className="button">
              View trades
            </Link>
            <Link to={`/dashboard?account=${account.id}`} className="button button--secondary">
              View dashboard
            </Link>
          </div>
        </section>
      )}

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
