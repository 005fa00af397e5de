import { changelogGroup } from "../changelog.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the in-app changelog.
export default createWorker([changelogGroup]);
