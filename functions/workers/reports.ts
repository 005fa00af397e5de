import { reportsGroup } from "../reports.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the printable report. It has no PDF printer
// (no processes on Workers): GET /api/reports/report.pdf answers 503 here, and the reader's browser prints the page.
export default createWorker([reportsGroup]);
