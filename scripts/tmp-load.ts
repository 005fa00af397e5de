import { readProcessEnv } from "../lib/config/index.ts";
import { baseTestEnv } from "../tests/support/env.ts";
import { measureLoad } from "./bench/load.ts";
const { PATH } = await readProcessEnv({ dotenvPath: false });
const env = { ...baseTestEnv(), PATH: PATH ?? "", NODE_ENV: "production" };
const r = await measureLoad(env, { levels: [30], levelMs: 12_000 });
console.log(JSON.stringify(r.restart), JSON.stringify(r.poolerKilled)); console.log(JSON.stringify({ ...r, byLevel: r.byLevel.map((l) => ({ ...l, routes: undefined })), overload: { ...r.overload, routes: undefined }, pooled300: { ...r.pooled300, routes: undefined } }, null, 1).slice(0, 4000));
process.exit(0);
