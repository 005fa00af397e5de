import { quotesGroup } from "../market.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for delayed quotes.
export default createWorker([quotesGroup]);
