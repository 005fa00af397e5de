// Images of an owner: a trade's screenshots, a playbook's examples, a day's images (docs/discipline.md).
// Added by picking files, dropping them on the panel, or (on the trade page) pasting an image anywhere on the
// page (a text paste into the notes stays a text paste); thumbnails; a full-size viewer (a modal dialog: arrow
// keys move between images, Escape closes); delete after a confirmation.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type DragEvent } from "react";
import { apiFetch, readJson } from "../api/client.ts";
import { ApiError, errorFromResponse } from "../api/errors.ts";
import { ErrorAlert, StatusMessage } from "./ui.tsx";
import { formatDateTime } from "../lib/format.ts";

/** As the server's caps (lib/trades/images.ts); the server decides, these only save a useless upload. */
const MAX_BYTES = 5 * 1024 * 1024;
const MAX_IMAGES = 10;
const ACCEPTED = ["image/png", "image/jpeg", "image/webp"];

type Image = { id: string; contentType: string; bytes: number; createdAt: string };

/** How the gallery speaks of its images and their owner: "screenshot" of "this trade", "example" of "this playbook". */
export type GalleryWords = { title: string; noun: string; owner: string };
export const SCREENSHOTS: GalleryWords = { title: "Screenshots", noun: "screenshot", owner: "this trade" };

const imageUrl = (base: string, imageId: string) => `${base}/images/${imageId}`;
const imagesKey = (base: string) => ["images", base] as const;

function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

async function uploadImage(base: string, file: File): Promise<Image> {
  const form = new FormData();
  form.set("file", file, file.name || "pasted-image");
  const res = await apiFetch(`${base}/images`, { method: "POST", body: form });
  if (!res.ok) {
    // The message says what is wrong with the file; there is no form field to point at.
    const err = await errorFromResponse(res);
    throw err.fields.length ? new ApiError(err.status, err.code, err.message, err.requestId) : err;
  }
  return (await res.json()) as Image;
}

/** Files the browser hands over (picker, drop, paste), with the ones that cannot be images said up front. */
function checkFiles(files: File[], room: number, owner: string): { ok: File[]; problem: string | null } {
  const images = files.filter((f) => ACCEPTED.includes(f.type) || f.type === "");
  const problems: string[] = [];
  if (images.length < files.length) problems.push("Only PNG, JPEG and WebP images can be added.");
  const small = images.filter((f) => f.size <= MAX_BYTES);
  if (small.length < images.length) problems.push("An image can be at most 5 MB.");
  if (small.length > room)
    problems.push(room === 0 ? `${owner[0]!.toUpperCase()}${owner.slice(1)} already has ${MAX_IMAGES} images; delete one to add another.` : `Only ${room} more image${room === 1 ? "" : "s"} fit (${MAX_IMAGES} each).`);
  return { ok: small.slice(0, room), problem: problems.length ? problems.join(" ") : null };
}

/**
 * The images under `base` (`/api/trades/:id`, `/api/playbooks/:id`, `/api/days/:accountId/:day`). `paste`:
 * an image pasted anywhere on the page is added here (one gallery on the page only).
 */
export function ImageGallery({ base, zone, words = SCREENSHOTS, paste = false, id = "images" }: { base: string; zone?: string | undefined; words?: GalleryWords; paste?: boolean; id?: string }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: imagesKey(base),
    queryFn: async () => readJson<{ images: Image[] }>(await apiFetch(`${base}/images`)),
  });
  const images = list.data?.images ?? [];
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [dragging, setDragging] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      for (const file of files) await uploadImage(base, file);
      return files.length;
    },
    onSuccess: (n) => setStatus(n === 1 ? "Image added." : `${n} images added.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: imagesKey(base) }),
  });
  const remove = useMutation({
    mutationFn: async (imageId: string) => readJson<void>(await apiFetch(imageUrl(base, imageId), { method: "DELETE" })),
    onSuccess: () => setStatus("Image deleted."),
    onSettled: () => queryClient.invalidateQueries({ queryKey: imagesKey(base) }),
  });

  const add = (files: File[]) => {
    setStatus("");
    if (!files.length) return;
    const { ok: fit, problem: why } = checkFiles(files, MAX_IMAGES - images.length, words.owner);
    setProblem(why);
    if (fit.length) upload.mutate(fit);
  };
  // Kept current for the page-wide paste listener, which is registered once.
  const addRef = useRef(add);
  addRef.current = add;

  useEffect(() => {
    if (!paste) return;
    const onPaste = (e: ClipboardEvent) => {
      const files = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith("image/"));
      if (!files.length) return;
      e.preventDefault();
      addRef.current(files);
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, [paste]);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add([...e.dataTransfer.files]);
  };

  const confirmDelete = (image: Image) => {
    if (!window.confirm(`Delete this ${words.noun}? It cannot be brought back.`)) return;
    const index = images.findIndex((i) => i.id === image.id);
    remove.mutate(image.id, {
      onSuccess: () => setOpen(images.length <= 1 ? null : Math.min(index, images.length - 2)),
    });
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{words.title}</h2>
      <div
        className={`shot-drop${dragging ? " shot-drop--active" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="image-dropzone"
      >
        <p className="muted">
          {paste ? "Paste a chart (Ctrl+V or ⌘V), drop image files here, or " : "Drop image files here, or "}
          <button type="button" className="link-button" onClick={() => input.current?.click()} disabled={upload.isPending || images.length >= MAX_IMAGES}>
            choose files
          </button>
          . PNG, JPEG or WebP, up to 5 MB each and {MAX_IMAGES} in all. Location and camera details are removed.
        </p>
        <input
          ref={input}
          type="file"
          accept={ACCEPTED.join(",")}
          multiple
          hidden
          aria-label={`Add ${words.noun}s`}
          onChange={(e) => {
            add([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
        />
      </div>
      {problem && (
        <div className="alert alert--error" role="alert">
          {problem}
        </div>
      )}
      <ErrorAlert error={upload.error} title="Could not add the image." />
      <ErrorAlert error={remove.error} title="Could not delete the image." />
      {list.error && <ErrorAlert error={list.error} title={`Could not load the ${words.noun}s.`} />}
      <StatusMessage>{upload.isPending ? "Uploading…" : status}</StatusMessage>
      {images.length > 0 && (
        <ul className="shots" aria-label={`${words.title} of ${words.owner}`}>
          {images.map((image, i) => (
            <li key={image.id}>
              <button type="button" className="shot" onClick={() => setOpen(i)} aria-label={`Open ${words.noun} ${i + 1} of ${images.length}`}>
                <img src={imageUrl(base, image.id)} alt="" loading="lazy" />
              </button>
              <span className="muted shot__meta">
                {formatDateTime(image.createdAt, zone)} · {sizeLabel(image.bytes)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {open !== null && images[open] && (
        <ImageViewer
          base={base}
          words={words}
          images={images}
          index={open}
          onIndex={setOpen}
          onClose={() => setOpen(null)}
          onDelete={confirmDelete}
          deleting={remove.isPending}
        />
      )}
    </section>
  );
}

function ImageViewer(props: {
  base: string;
  words: GalleryWords;
  images: Image[];
  index: number;
  onIndex(i: number): void;
  onClose(): void;
  onDelete(image: Image): void;
  deleting: boolean;
}) {
  const { base, words, images, index, onIndex, onClose, onDelete, deleting } = props;
  const Noun = `${words.noun[0]!.toUpperCase()}${words.noun.slice(1)}`;
  const dialog = useRef<HTMLDialogElement>(null);
  const image = images[index]!;
  const count = images.length;

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  const step = (by: number) => onIndex((index + by + count) % count);

  return (
    <dialog
      ref={dialog}
      className="viewer"
      aria-label={`${Noun} ${index + 1} of ${count}`}
      onClose={onClose}
      onKeyDown={(e) => {
        if (e.key === "ArrowRight") step(1);
        else if (e.key === "ArrowLeft") step(-1);
      }}
    >
      <div className="viewer__bar">
        <span>
          {Noun} {index + 1} of {count}
        </span>
        <div className="button-row">
          <button type="button" className="button button--secondary" onClick={() => step(-1)} disabled={count < 2} aria-label={`Previous ${words.noun}`}>
            ← Previous
          </button>
          <button type="button" className="button button--secondary" onClick={() => step(1)} disabled={count < 2} aria-label={`Next ${words.noun}`}>
            Next →
          </button>
          <a className="button button--secondary" href={imageUrl(base, image.id)} target="_blank" rel="noreferrer">
            Open original
          </a>
          <button type="button" className="button button--danger" onClick={() => onDelete(image)} disabled={deleting}>
            Delete
          </button>
          <button type="button" className="button" onClick={() => dialog.current?.close()} autoFocus>
            Close
          </button>
        </div>
      </div>
      <img className="viewer__image" src={imageUrl(base, image.id)} alt={`${Noun} ${index + 1} of ${count} of ${words.owner}`} />
    </dialog>
  );
}

