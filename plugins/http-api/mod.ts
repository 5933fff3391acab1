/**
 * @module The HTTP API plugin: CTS's `/v1` endpoints as a hono app mounted on the kernel's router.
 * The CLI's task commands are its client.
 */
import {
  apiSettings, conditionRegistryToken, configToken, consulClientToken, CtsError, daemonEventsToken, definePlugin, driverRegistryToken,
  httpRouterToken, type JsonSchema, loggerToken, moduleInputRegistryToken, type OptionsOf, type PluginContext, taskBlockRegistryToken, taskBuilderToken, taskManagerToken,
} from "../../core/plugin-api/mod.ts";
import { createApiApp } from "./src/create-api-app.ts";
import { EventStreamHub } from "./src/event-stream-hub.ts";
import { normalizeApiTask } from "./src/normalize-api-task.ts";

export { createApiApp, DEFAULT_BODY_LIMIT_BYTES } from "./src/create-api-app.ts";
export type { ApiDeps } from "./src/api-context.ts";
export { normalizeApiTask } from "./src/normalize-api-task.ts";
export { apiTaskToRaw } from "./src/api-task-to-raw.ts";
export { toApiTask } from "./src/task-representation.ts";
export { ApiBlocks, apiTypeName, type ApiBlockType, type ApiDriverType, type RegisteredBlocks } from "./src/api-blocks.ts";
export { CLUSTER_WITHOUT_HA_MESSAGE } from "./src/routes/meta-routes.ts";
export { DEFAULT_MAX_STREAMS, EventStreamHub, HEARTBEAT_MS } from "./src/event-stream-hub.ts";
export { DEFAULT_SSE_LIMITS, type SseQueueLimits } from "./src/sse-client-queue.ts";

const HEALTH_PATH = "/v1/health";

/** The plugin's options (`plugin "http-api" { options = { ... } }`), the one description of their type. */
const httpApiOptionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    body_limit_bytes: { type: "integer", minimum: 1024, description: "Largest request body accepted, in bytes (default 1048576)" },
  },
} as const satisfies JsonSchema;

export type HttpApiOptions = OptionsOf<typeof httpApiOptionsSchema>;

export default definePlugin({
  id: "http-api",
  kind: "api",
  logName: "api",
  description: "CTS-compatible HTTP API under /v1 (tasks, status, health)",
  optionsSchema: httpApiOptionsSchema,
  deps: {
    router: httpRouterToken,
    tasks: taskManagerToken,
    builder: taskBuilderToken,
    consul: consulClientToken,
    logger: loggerToken,
    conditions: conditionRegistryToken,
    moduleInputs: moduleInputRegistryToken,
    drivers: driverRegistryToken,
    taskBlocks: taskBlockRegistryToken,
    events: daemonEventsToken,
    config: configToken,
  },
  init({ router, tasks, builder, consul, logger, conditions, moduleInputs, drivers, taskBlocks, events, config }, ctx: PluginContext<HttpApiOptions>) {
    const options = ctx.options;
    const eventStream = new EventStreamHub(events, logger, { maxClients: apiSettings(config).max_event_streams });
    // Before the server closes: streams end cleanly (an EventSource then reconnects, perhaps to
    // another member) instead of being cut with the connection.
    ctx.signal.addEventListener("abort", () => eventStream.close(), { once: true });
    const app = createApiApp({
      tasks,
      normalizeTask: (apiTask, blocks) => normalizeApiTask(apiTask, builder, blocks),
      registeredBlocks: () => ({
        conditions: conditions.names().map((name) => conditions.get(name)!),
        moduleInputs: moduleInputs.names().map((name) => moduleInputs.get(name)!),
        drivers: drivers.names().map((name) => drivers.get(name)!),
        taskBlocks: taskBlocks.names().map((name) => taskBlocks.get(name)!),
      }),
      validateTaskName: (name) => {
        const problem = builder.nameProblem(name);
        if (problem !== undefined) throw new CtsError("CTS_ERR_BAD_REQUEST", `Cannot accept task name: ${problem}`);
      },
      logger,
      consulState: () => consul.connectionState(),
      eventStream,
      ...(options.body_limit_bytes !== undefined ? { bodyLimitBytes: options.body_limit_bytes } : {}),
    });
    // Consul's check of this instance calls /v1/health: it never has the API token.
    router.mount("/v1", app.fetch, { public: (path) => path === HEALTH_PATH });
  },
});
