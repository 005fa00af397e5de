import { createApp, type AppOptions, type Group } from "../lib/http/index.ts";

// Only the shell: a Worker entry passes its own group, so its bundle holds no other group's code.

/** The API with the given groups mounted. */
export function buildApp(options: AppOptions, groups: readonly Group[]) {
  const app = createApp(options);
  for (const group of groups) app.route(group.prefix, group.app);
  return app;
}
