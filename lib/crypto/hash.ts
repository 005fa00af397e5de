// The one SHA-256 the project stores secrets by (session, token, link and code hashes): hex of the UTF-8 text.
import { createHash } from "node:crypto";

export const sha256Hex = (value: string): string => createHash("sha256").update(value).digest("hex");
