// Uploaded screenshots checked by their bytes, never by their name or declared type: PNG, JPEG or WebP,
// walked chunk by chunk (so a file that only starts like an image is refused), measured, and rewritten
// without their metadata. Dropped: PNG text and EXIF chunks (tEXt, zTXt, iTXt, eXIf, tIME and every other
// ancillary chunk not needed to draw the image), JPEG APPn segments other than JFIF, ICC profiles and Adobe
// colour info (EXIF with its GPS position, XMP, IPTC, maker notes, thumbnails) and comments, WebP EXIF and
// XMP chunks. Pixels are not decoded or re-encoded, so this runs the same on Node and in workerd, fast,
// with no image library. (No maintained library strips all three formats without re-encoding, and a
// re-encoding one would not run on Workers; the container formats are simple and fully specified.)

export type ImageType = "image/png" | "image/jpeg" | "image/webp";

export type CleanImage = { contentType: ImageType; bytes: Uint8Array; width: number; height: number };

/** Why an upload is not an image we keep: not one of the three types at all, or one that is broken. */
export type ImageProblem = { kind: "unsupported" } | { kind: "malformed"; type: ImageType };

export class ImageRejected extends Error {
  readonly problem: ImageProblem;
  constructor(problem: ImageProblem) {
    super(problem.kind);
    this.problem = problem;
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The type the bytes say they are, or null (the name and the declared content type are never asked). */
export function sniffImageType(b: Uint8Array): ImageType | null {
  if (b.length >= 8 && PNG_SIGNATURE.every((x, i) => b[i] === x)) return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "image/webp";
  return null;
}

/** The image without its metadata, with its size in pixels; throws ImageRejected. */
export function cleanImage(bytes: Uint8Array): CleanImage {
  const type = sniffImageType(bytes);
  if (!type) throw new ImageRejected({ kind: "unsupported" });
  try {
    const out = type === "image/png" ? cleanPng(bytes) : type === "image/jpeg" ? cleanJpeg(bytes) : cleanWebp(bytes);
    if (out.width < 1 || out.height < 1) throw new Malformed();
    return { contentType: type, ...out };
  } catch (err) {
    if (err instanceof Malformed || err instanceof RangeError) throw new ImageRejected({ kind: "malformed", type });
    throw err;
  }
}

class Malformed extends Error {}

function ascii(b: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...b.subarray(at, at + length));
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// PNG (ISO/IEC 15948): signature, then chunks of length (4, big-endian), type (4), data, CRC (4). IHDR
// first, IEND last. Kept: the critical chunks and the ancillary ones that change how pixels look.
const PNG_KEEP = new Set(["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "cICP", "mDCv", "cLLI", "bKGD", "pHYs", "acTL", "fcTL", "fdAT"]);

function cleanPng(b: Uint8Array) {
  const dv = view(b);
  const parts: Uint8Array[] = [b.subarray(0, 8)];
  let at = 8;
  let width = 0;
  let height = 0;
  let first = true;
  for (;;) {
    if (at + 12 > b.length) throw new Malformed();
    const length = dv.getUint32(at);
    const type = ascii(b, at + 4, 4);
    const end = at + 12 + length;
    if (end > b.length || !/^[A-Za-z]{4}$/.test(type)) throw new Malformed();
    if (first) {
      if (type !== "IHDR" || length !== 13) throw new Malformed();
      width = dv.getUint32(at + 8);
      height = dv.getUint32(at + 12);
      first = false;
    }
    if (PNG_KEEP.has(type)) parts.push(b.subarray(at, end));
    at = end;
    if (type === "IEND") break;
  }
  return { bytes: concat(parts), width, height };
}

// JPEG (ITU T.81): SOI, then marker segments (0xFF, marker, 2-byte big-endian length including itself);
// each SOS (start of scan) is followed by entropy-coded data up to the next marker (0xFF 0x00 is a stuffed
// byte, 0xFF 0xD0-0xD7 a restart marker: both part of the data). A progressive JPEG has several scans, with
// table segments (and, from some tools, APPn metadata) between them; EOI ends the frame. Kept: everything
// before the first scan but APPn segments (except JFIF in APP0, ICC_PROFILE in APP2, Adobe in APP14) and
// comments (COM); the scans and the tables between them, without any APPn or COM there. The stored file ends
// at the first frame's EOI: whatever follows (the second picture of a multi-picture camera file, with its
// own EXIF and GPS, or bytes some tools append) is dropped.
function cleanJpeg(b: Uint8Array) {
  const dv = view(b);
  const parts: Uint8Array[] = [b.subarray(0, 2)];
  let at = 2;
  let width = 0;
  let height = 0;
  let scanned = false;
  for (;;) {
    if (at + 2 > b.length || b[at] !== 0xff) throw new Malformed();
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) {
      if (!scanned) throw new Malformed();
      parts.push(b.subarray(at, at + 2));
      break;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || at + 4 > b.length) throw new Malformed();
    const length = dv.getUint16(at + 2);
    const end = at + 2 + length;
    if (length < 2 || end > b.length) throw new Malformed();
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (length < 8) throw new Malformed();
      height = dv.getUint16(at + 5);
      width = dv.getUint16(at + 7);
    }
    if (marker === 0xda) {
      if (!width || !height) throw new Malformed();
      const dataEnd = entropyEnd(b, end);
      parts.push(b.subarray(at, dataEnd));
      scanned = true;
      at = dataEnd;
      continue;
    }
    const isApp = marker >= 0xe0 && marker <= 0xef;
    const id = ascii(b, at + 4, Math.min(12, Math.max(0, length - 2)));
    const keep =
      !isApp && marker !== 0xfe
        ? true
        : !scanned && ((marker === 0xe0 && id.startsWith("JFIF")) || (marker === 0xe2 && id.startsWith("ICC_PROFILE")) || (marker === 0xee && id.startsWith("Adobe")));
    if (keep) parts.push(b.subarray(at, end));
    at = end;
  }
  return { bytes: concat(parts), width, height };
}

/** Where a scan's entropy-coded data ends: the next marker that is not a stuffed byte or a restart; a file cut short has none. */
function entropyEnd(b: Uint8Array, from: number): number {
  for (let i = from; i + 1 < b.length; i++) {
    if (b[i] !== 0xff) continue;
    const next = b[i + 1]!;
    if (next === 0xff) continue; // a fill byte before a marker
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      i += 1;
      continue;
    }
    return i;
  }
  throw new Malformed();
}

// WebP (RIFF): "RIFF", size (4, little-endian), "WEBP", then chunks of fourcc, size (LE), data padded to
// an even length. EXIF and XMP chunks are dropped and their flags cleared in VP8X.
function cleanWebp(b: Uint8Array) {
  const dv = view(b);
  const riffEnd = 8 + dv.getUint32(4, true);
  if (riffEnd > b.length || riffEnd < 20) throw new Malformed();
  const chunks: Uint8Array[] = [];
  let at = 12;
  let width = 0;
  let height = 0;
  while (at < riffEnd) {
    if (at + 8 > riffEnd) throw new Malformed();
    const fourcc = ascii(b, at, 4);
    const size = dv.getUint32(at + 4, true);
    const end = at + 8 + size + (size & 1);
    if (at + 8 + size > riffEnd) throw new Malformed();
    const data = at + 8;
    if (fourcc === "VP8X") {
      if (size < 10) throw new Malformed();
      width = 1 + (b[data + 4]! | (b[data + 5]! << 8) | (b[data + 6]! << 16));
      height = 1 + (b[data + 7]! | (b[data + 8]! << 8) | (b[data + 9]! << 16));
      const copy = b.slice(at, Math.min(end, riffEnd));
      copy[8] = copy[8]! & ~(0x08 | 0x04); // no EXIF, no XMP
      chunks.push(copy);
    } else if (fourcc === "VP8 " && !width) {
      if (size < 10 || b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) throw new Malformed();
      width = dv.getUint16(data + 6, true) & 0x3fff;
      height = dv.getUint16(data + 8, true) & 0x3fff;
      chunks.push(b.subarray(at, Math.min(end, riffEnd)));
    } else if (fourcc === "VP8L" && !width) {
      if (size < 5 || b[data] !== 0x2f) throw new Malformed();
      const bits = dv.getUint32(data + 1, true);
      width = 1 + (bits & 0x3fff);
      height = 1 + ((bits >>> 14) & 0x3fff);
      chunks.push(b.subarray(at, Math.min(end, riffEnd)));
    } else if (fourcc !== "EXIF" && fourcc !== "XMP ") {
      chunks.push(b.subarray(at, Math.min(end, riffEnd)));
    }
    at = end;
  }
  const body = concat(chunks);
  const header = new Uint8Array(12);
  header.set(b.subarray(0, 12));
  new DataView(header.buffer).setUint32(4, 4 + body.length, true);
  return { bytes: concat([header, body]), width, height };
}
