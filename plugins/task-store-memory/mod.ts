/** @module The in-memory TaskStore plugin (standalone; HA uses the Consul-KV store instead). */
import { defineService, definePlugin, taskStoreToken } from "../../core/plugin-api/mod.ts";
import { MemoryTaskStore } from "./src/memory-task-store.ts";

export { MemoryTaskStore } from "./src/memory-task-store.ts";

export default definePlugin({
  id: "task-store-memory",
  kind: "store",
  description: "Keeps tasks and their events in memory",
  provides: [defineService({ token: taskStoreToken, deps: {}, create: () => new MemoryTaskStore() })],
  deps: {},
});
