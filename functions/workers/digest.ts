import { boundModel } from "../../lib/advisor/model-binding.ts";
import { digestGroup } from "../digest.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the digest's unsubscribe and preview. The
// preview's reading runs in the model Workers, over Workers RPC.
export default createWorker([digestGroup], { model: (env) => boundModel(env) });
