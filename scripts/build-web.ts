// `npm run build:web`: the browser app into web/dist (served by the Node entrypoint and the web
// container). Until the React app lands this copies the static placeholder in web/public.
import { cpSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const from = fileURLToPath(new URL("../web/public", import.meta.url));
const to = fileURLToPath(new URL("../web/dist", import.meta.url));
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
console.log("web/dist written.");
