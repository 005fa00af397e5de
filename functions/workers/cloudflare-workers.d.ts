// The one piece of the Workers runtime module the model Workers use, for the root type check (which has the
// DOM and Node types, not the Workers types: tests/workers has those).
declare module "cloudflare:workers" {
  export abstract class WorkerEntrypoint<Env = unknown> {
    protected ctx: { waitUntil(promise: Promise<unknown>): void };
    protected env: Env;
    constructor(ctx: unknown, env: Env);
  }
}

// WebAssembly imported as a module (wrangler and the Workers test pool compile it at build time).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
