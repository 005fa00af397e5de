import { csvImportGroup } from "../csv-import.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the CSV import group.
export default createWorker([csvImportGroup]);
