// `npm run dev`: first-run setup, then the Node entrypoint (embedded database unless DATABASE_URL says
// otherwise) on PORT, 3100 by default.
import { ensureLocalEnvFiles } from "./setup.ts";
import { main } from "../functions/node.ts";

const written = ensureLocalEnvFiles();
if (written.length) console.log(`First run: wrote ${written.join(" and ")} with freshly generated secrets.`);
await main();
