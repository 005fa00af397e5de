import { tradesGroup } from "../trades.ts";
import { createEdgeObjectStore } from "../../lib/storage/s3-fetch.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the trades group, which keeps trade
// screenshots in object storage when it is configured.
export default createWorker([tradesGroup], { storage: createEdgeObjectStore });
