import { instrumentsGroup } from "../market.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the futures contract table.
export default createWorker([instrumentsGroup]);
