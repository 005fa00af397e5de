import { csvImportGroup } from "../csv-import.ts";
import { createEdgeObjectStore } from "../../lib/storage/s3-fetch.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the CSV import group, which stages
// previews in object storage when it is configured.
export default createWorker([csvImportGroup], { storage: createEdgeObjectStore });
