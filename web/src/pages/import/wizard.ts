// The CSV import wizard's state (docs/imports.md, web/src/pages/import): what index.tsx and steps.tsx share.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { ImportMapping, ImportOptions, ImportRequest } from "../../../../lib/imports/schema.ts";
import { api, apiFetch, unwrap } from "../../api/client.ts";
import { ApiError, asApiError } from "../../api/errors.ts";
import type { Account } from "../../api/queries.ts";
import {
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
import { historyKey, invalidateAfterImport } from "./history.tsx";
import { uploadPreview, type PreviewResult } from "./upload.ts";

export const MANUAL = "manual";

export const DATE_FORMAT_CHOICES: { value: NonNullable<ImportOptions["dateFormat"]>; label: string }[] = [
  { value: "iso", label: "ISO 8601 (2024-01-19T09:30:15)" },
  { value: "MM/DD/YYYY", label: "MM/DD/YYYY (01/19/2024 9:30:15 AM)" },
  { value: "DD/MM/YYYY", label: "DD/MM/YYYY (19/01/2024 09:30:15)" },
  { value: "YYYYMMDD", label: "YYYYMMDD (20240119 093015)" },
];

export const DELIMITER_CHOICES: { value: "" | Delimiter; label: string }[] = [
  { value: "", label: "Detect automatically" },
  { value: ",", label: "Comma ( , )" },
  { value: ";", label: "Semicolon ( ; )" },
  { value: "\t", label: "Tab" },
  { value: "|", label: "Pipe ( | )" },
];

export type OptionsForm = {
  dateFormat: NonNullable<ImportOptions["dateFormat"]>;
  numberFormat: NonNullable<ImportOptions["numberFormat"]>;
  timezone: string;
  delimiter: "" | Delimiter;
  hasHeader: boolean;
  sideFromQuantitySign: boolean;
  tradeDate: string;
};

export const defaultOptions = (): OptionsForm => ({
  dateFormat: "iso",
  numberFormat: "1,234.56",
  timezone: "",
  delimiter: "",
  hasHeader: true,
  sideFromQuantitySign: false,
  tradeDate: "",
});

/** The preset's options the form shows, so the reader sees (and may change) what the preset assumes. */
export function optionsFromPreset(preset: PresetLike, current: OptionsForm): OptionsForm {
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
export function hiddenPresetOptions(preset: PresetLike): ImportOptions {
  const { dateFormat: _d, numberFormat: _n, delimiter: _l, hasHeader: _h, sideFromQuantitySign: _s, timezone: _t, tradeDate: _r, ...rest } = preset.options;
  return rest;
}

export type Sniff = { file: File; text: string; complete: boolean; detectedDelimiter: Delimiter };

export type Upload = { phase: "idle" } | { phase: "uploading"; loaded: number; total: number } | { phase: "checking" };

export function timeZoneChoices(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
}

/** The import wizard's state and actions (docs/imports.md): the file read, the format found or mapped, the options,
 * the preview and its commit. The steps (steps.tsx) show it. */
export function useImportWizard(account: Account, presets: readonly PresetLike[]) {
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

  // What the steps show and do (steps.tsx).
  return {
    account, presets, fileInputId, dropHintId, dragging, setDragging, sniff, fileError, format, detected, selection,
    setSelection, carried, opts, problems, upload, preview, setPreview, previewError, includeDuplicates,
    setIncludeDuplicates, announce, setAnnounce, suggested, sample, abortRef, previewHeadingRef, doneRef, zones,
    preset, columnChoices, missing, needsTradeDate, discardStaged, commit, modelKey, askModel, onFile, onFormatChange,
    runPreview, problemFor, busy, commitError, nothingToImport, setOpt,
  };
}

export type ImportWizardState = ReturnType<typeof useImportWizard>;
