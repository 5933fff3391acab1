import { MemoryTaskStore } from "../../../plugins/task-store-memory/mod.ts";
import { describeTaskStoreConformance } from "./task-store-conformance.ts";

describeTaskStoreConformance("memory", async () => new MemoryTaskStore());
