import { describeTaskStoreConformance } from "../../../core/plugin-testkit/mod.ts";
import { MemoryTaskStore } from "../../../plugins/task-store-memory/mod.ts";

describeTaskStoreConformance("memory", async () => new MemoryTaskStore());
