// The project's root folder, for what the server reads from disk at run time (migrations, the built browser
// app). This file sits one level below the root (lib/), as does the Node server bundle (.server/,
// scripts/build-server.ts) that inlines it, so the same relative URL finds the root from either.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));
