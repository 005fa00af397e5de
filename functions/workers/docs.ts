import { docsGroup } from "../docs.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the OpenAPI document and its reference page.
export default createWorker([docsGroup]);
