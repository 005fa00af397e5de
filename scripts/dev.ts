// `npm run dev`: first-run setup, the browser app built when web/dist is missing or older than its
// sources, then the Node entrypoint (embedded database unless DATABASE_URL says otherwise) on PORT, 3100
// by default.
import { ensureLocalEnvFiles } from "./setup.ts";
import { buildWebIfStale } from "./build-web.ts";
import { main } from "../functions/node-main.ts";

const written = ensureLocalEnvFiles();
if (written.length) console.log(`First run: wrote ${written.join(" and ")} with freshly generated secrets.`);
await buildWebIfStale();
await main({ banner: true });
