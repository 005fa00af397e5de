import { propFirmsGroup } from "../prop-firms.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the prop-firm presets.
export default createWorker([propFirmsGroup]);
