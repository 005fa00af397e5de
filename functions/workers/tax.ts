import { taxGroup } from "../tax.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the tax lots and forms.
export default createWorker([taxGroup]);
