// Image files for the screenshot tests, built byte by byte: a real PNG (drawable: zlib-compressed RGB rows
// with correct CRCs), and JPEG and WebP files with the container structure the server walks, each able to
// carry the metadata it must remove (text chunks, EXIF with a GPS position, XMP, comments).
import { deflateSync, crc32 } from "node:zlib";

/** What every metadata block below contains, so a test can look for it in what was stored. */
export const GPS_MARK = "GPSLatitude 48.8584N GPSLongitude 2.2945E";

const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const u16be = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  return Buffer.concat([u32be(data.length), body, u32be(crc32(body))]);
}

/** A PNG of `width` x `height` in one colour; `metadata` adds tEXt, iTXt and eXIf chunks carrying GPS_MARK. */
export function pngImage(options: { width?: number; height?: number; rgb?: [number, number, number]; metadata?: boolean } = {}): Buffer {
  const { width = 64, height = 48, rgb = [40, 120, 200], metadata = false } = options;
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const extra = metadata
    ? [
        pngChunk("tEXt", Buffer.from(`Comment\0${GPS_MARK}`, "latin1")),
        pngChunk("iTXt", Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta>${GPS_MARK}</x:xmpmeta>`, "latin1")),
        pngChunk("eXIf", Buffer.concat([Buffer.from("MM\0*\0\0\0\x08", "latin1"), Buffer.from(GPS_MARK, "latin1")])),
      ]
    : [];
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    ...extra,
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function jpegSegment(marker: number, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0xff, marker]), u16be(data.length + 2), data]);
}

/**
 * A JPEG's structure (JFIF, tables, a baseline frame header of width x height, one scan, EOI); `metadata`
 * adds an EXIF APP1 segment with GPS_MARK, an XMP APP1, an IPTC APP13 and a comment. `progressive`: a
 * progressive frame (SOF2) of two scans with an EXIF APP1 (GPS_MARK), a comment and a new table between
 * them. `appended`: a second picture after EOI (as multi-picture camera files carry), with its own EXIF.
 */
export function jpegImage(
  options: { width?: number; height?: number; metadata?: boolean; truncated?: boolean; progressive?: boolean; appended?: boolean } = {},
): Buffer {
  const { width = 800, height = 600, metadata = false, truncated = false, progressive = false, appended = false } = options;
  if (progressive) {
    const parts = [
      Buffer.from([0xff, 0xd8]),
      jpegSegment(0xe0, Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1")),
      jpegSegment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
      jpegSegment(0xc2, Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([1, 1, 0x11, 0])])),
      jpegSegment(0xc4, Buffer.concat([Buffer.from([0]), Buffer.alloc(16, 0)])),
      jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 0, 0])),
      Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]), // a stuffed byte and a restart marker inside the data
      jpegSegment(0xe1, Buffer.concat([Buffer.from("Exif\0\0MM\0*\0\0\0\x08", "latin1"), Buffer.from(GPS_MARK, "latin1")])),
      jpegSegment(0xfe, Buffer.from(`between scans ${GPS_MARK}`, "latin1")),
      jpegSegment(0xc4, Buffer.concat([Buffer.from([0x10]), Buffer.alloc(16, 0)])),
      jpegSegment(0xda, Buffer.from([1, 1, 0, 1, 0x3f, 0])),
      Buffer.from([0x78, 0x9a]),
      Buffer.from([0xff, 0xd9]),
    ];
    return Buffer.concat(parts);
  }
  const parts = [
    Buffer.from([0xff, 0xd8]),
    jpegSegment(0xe0, Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1")),
    ...(metadata
      ? [
          jpegSegment(0xe1, Buffer.concat([Buffer.from("Exif\0\0MM\0*\0\0\0\x08", "latin1"), Buffer.from(GPS_MARK, "latin1")])),
          jpegSegment(0xe1, Buffer.from(`http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>${GPS_MARK}</x:xmpmeta>`, "latin1")),
          jpegSegment(0xed, Buffer.from(`Photoshop 3.0\0${GPS_MARK}`, "latin1")),
          jpegSegment(0xfe, Buffer.from(`taken at ${GPS_MARK}`, "latin1")),
        ]
      : []),
    jpegSegment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    jpegSegment(0xc0, Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([1, 1, 0x11, 0])])),
    jpegSegment(0xc4, Buffer.concat([Buffer.from([0]), Buffer.alloc(16, 0), Buffer.alloc(0)])),
    jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x12, 0x34, 0xff, 0x00, 0x56]),
  ];
  if (!truncated) parts.push(Buffer.from([0xff, 0xd9]));
  if (appended) parts.push(jpegImage({ width: 160, height: 120, metadata: true }));
  return Buffer.concat(parts);
}

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const pad = data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0);
  return Buffer.concat([Buffer.from(fourcc, "latin1"), u32le(data.length), data, pad]);
}

/** A lossless WebP's structure (VP8X + VP8L) of width x height; `metadata` adds EXIF and XMP chunks and their flags. */
export function webpImage(options: { width?: number; height?: number; metadata?: boolean } = {}): Buffer {
  const { width = 320, height = 200, metadata = false } = options;
  const vp8x = Buffer.alloc(10);
  vp8x[0] = metadata ? 0x08 | 0x04 : 0;
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const vp8l = Buffer.concat([Buffer.from([0x2f]), u32le(bits), Buffer.from([0, 0, 0])]);
  const chunks = [
    riffChunk("VP8X", vp8x),
    riffChunk("VP8L", vp8l),
    ...(metadata ? [riffChunk("EXIF", Buffer.concat([Buffer.from("MM\0*\0\0\0\x08", "latin1"), Buffer.from(GPS_MARK, "latin1")])), riffChunk("XMP ", Buffer.from(`<x:xmpmeta>${GPS_MARK}</x:xmpmeta>`, "latin1"))] : []),
  ];
  const body = Buffer.concat([Buffer.from("WEBP", "latin1"), ...chunks]);
  return Buffer.concat([Buffer.from("RIFF", "latin1"), u32le(body.length), body]);
}

/**
 * A PNG of about `bytes` bytes whose image data is random (as incompressible as a real screenshot's): the
 * structure the server walks is right (chunks, CRCs); its pixels are never decoded, so they need not draw.
 */
export function largePng(bytes: number): Buffer {
  const ihdr = Buffer.concat([u32be(1920), u32be(1080), Buffer.from([8, 2, 0, 0, 0])]);
  const data = Buffer.alloc(Math.max(0, bytes - 57));
  for (let i = 0; i < data.length; i += 65536) crypto.getRandomValues(data.subarray(i, Math.min(i + 65536, data.length)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", ihdr), pngChunk("IDAT", data), pngChunk("IEND", Buffer.alloc(0))]);
}
