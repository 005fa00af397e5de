import { authGroup } from "../auth.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the auth group.
export default createWorker([authGroup]);
