import { brokeragesGroup } from "../brokerages.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the brokerages group.
export default createWorker([brokeragesGroup]);
