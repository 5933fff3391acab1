/**
 * @module The status page plugin (beyond CTS): a live page at `/ui/` on the API port with the
 * tasks, a page per task (`/ui/tasks/<name>`: its configuration, runs and actions) and per run
 * (`/ui/tasks/<name>/runs/<id>`: why it ran, resources, outputs, logs), the HA cluster and the
 * Consul connection, updated from `GET /v1/events`. Served by every HA member (a follower shows the cluster and points to the
 * leader). Disable it with `plugin "status-page" { options = { enabled = false } }`.
 */
import {
  configToken, consulClientToken, definePlugin, httpRouterToken, type JsonSchema, leadershipToken, type OptionsOf, type PluginContext, runtimeVersionToken, taskManagerToken,
} from "../../core/plugin-api/mod.ts";
import { buildOverview } from "./src/overview.ts";
import { createStatusPageHandler, isPublicAsset, UI_PATH } from "./src/status-page-handler.ts";

export { buildOverview } from "./src/overview.ts";
export { nextRunOf } from "./src/next-run.ts";
export { CONTENT_SECURITY_POLICY, UI_PATH } from "./src/status-page-handler.ts";

/** The plugin's options (`plugin "status-page" { options = { ... } }`), the one description of their type. */
const statusPageOptionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: { enabled: { type: "boolean", default: true } },
} as const satisfies JsonSchema;

export type StatusPageOptions = OptionsOf<typeof statusPageOptionsSchema>;

export default definePlugin({
  id: "status-page",
  kind: "api",
  logName: "ui",
  description: "A live status page at /ui/: tasks, a page per task and per run (logs, resources, outputs), actions, HA cluster, Consul",
  optionsSchema: statusPageOptionsSchema,
  deps: {
    router: httpRouterToken,
    tasks: taskManagerToken,
    leadership: leadershipToken,
    consul: consulClientToken,
    version: runtimeVersionToken,
    config: configToken,
  },
  init({ router, tasks, leadership, consul, version, config }, ctx: PluginContext<StatusPageOptions>) {
    if (!ctx.options.enabled) return;
    const highAvailability = config.high_availability !== undefined;
    const overview = (task?: string) =>
      buildOverview({ tasks, leadership, consulState: () => consul.connectionState(), version, highAvailability }, new Date(), task);
    router.mount(UI_PATH, createStatusPageHandler(overview), { public: isPublicAsset });
  },
});
