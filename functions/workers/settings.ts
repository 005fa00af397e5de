import { settingsGroup } from "../settings.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the user's settings and base-currency rates.
export default createWorker([settingsGroup]);
