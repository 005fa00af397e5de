import { journalsGroup } from "../journals.ts";
import { createEdgeObjectStore } from "../../lib/storage/s3-fetch.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the journals group, which reads and
// deletes screenshots of detached notes in object storage when it is configured.
export default createWorker([journalsGroup], { storage: createEdgeObjectStore });
