import { createApp, type AppOptions } from "../lib/http/index.ts";
import { groups, type GroupName } from "./groups.ts";

/** The API with the given groups mounted (all of them by default). */
export function buildApp(options: AppOptions, names: readonly GroupName[] = Object.keys(groups) as GroupName[]) {
  const app = createApp(options);
  for (const name of names) app.route(groups[name].prefix, groups[name].app);
  return app;
}

/** Route types for a typed client in web/ (hono/client). */
export function typedRoutes() {
  return createApp({ deps: () => undefined as never })
    .route(groups.health.prefix, groups.health.app)
    .route(groups.config.prefix, groups.config.app)
    .route(groups.auth.prefix, groups.auth.app);
}
export type AppType = ReturnType<typeof typedRoutes>;
