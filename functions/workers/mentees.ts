import { menteesGroup } from "../sharing.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the journals a mentor reads.
export default createWorker([menteesGroup]);
