import { boundModel } from "../../lib/advisor/model-binding.ts";
import { advisorGroup } from "../advisor.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the advisor group. The model call runs in
// the model Workers behind service bindings (functions/workers/model-*.ts), so this Worker carries no AI SDK.
export default createWorker([advisorGroup], { model: (env) => boundModel(env) });
