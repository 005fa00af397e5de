import { passkeysGroup } from "../passkeys.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the passkeys group.
export default createWorker([passkeysGroup]);
