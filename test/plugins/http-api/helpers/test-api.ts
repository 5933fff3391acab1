/**
 * @module The API app over the real task engine for in-process `app.request()` tests: a kernel
 * (engine, store, leadership, conditions, recording driver) without an HTTP server, talking to
 * the embedded Consul, and `createApiApp` over its TaskManager.
 */
import type { Logger } from "../../../../core/plugin-api/mod.ts";
import { createApiApp } from "../../../../plugins/http-api/src/create-api-app.ts";
import {
  conditionRegistryToken, consulClientToken, driverRegistryToken, moduleInputRegistryToken, taskBuilderToken,
} from "../../../../core/plugin-api/mod.ts";
import { normalizeApiTask } from "../../../../plugins/http-api/src/normalize-api-task.ts";
import type { RecordingOptions } from "../../../../harness/driver-recording/mod.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "./api-kernel.ts";

export interface LogRecord {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

export function recordingLogger(records: LogRecord[] = [], name = "api"): Logger {
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    records.push({ level, message, ...(fields ? { fields } : {}) });
  };
  return {
    name,
    trace: at("TRACE"), debug: at("DEBUG"), info: at("INFO"), warn: at("WARN"), error: at("ERROR"),
    child: (child) => recordingLogger(records, `${name}.${child}`),
  };
}

export interface EngineApp {
  readonly app: ReturnType<typeof createApiApp>;
  readonly daemon: ApiKernel;
  readonly logs: LogRecord[];
  stop(): Promise<void>;
}

export async function startEngineApp(options: {
  consulAddress: string;
  recording?: RecordingOptions;
  bodyLimitBytes?: number;
}): Promise<EngineApp> {
  const base = apiConfig();
  const config = apiConfig({ consul: { ...base.consul, address: options.consulAddress } });
  const daemon = await startApiKernel({ config, listen: false, ...(options.recording ? { recording: options.recording } : {}) });
  const logs: LogRecord[] = [];
  const builder = daemon.kernel.resolve(taskBuilderToken);
  const app = createApiApp({
    tasks: daemon.tasks,
    normalizeTask: (apiTask, blocks) => normalizeApiTask(apiTask, builder, blocks),
    registeredBlocks: () => {
      const conditions = daemon.kernel.resolve(conditionRegistryToken);
      const moduleInputs = daemon.kernel.resolve(moduleInputRegistryToken);
      const drivers = daemon.kernel.resolve(driverRegistryToken);
      return {
        conditions: conditions.names().map((name) => conditions.get(name)!),
        moduleInputs: moduleInputs.names().map((name) => moduleInputs.get(name)!),
        drivers: drivers.names().map((name) => drivers.get(name)!),
      };
    },
    validateTaskName: (name) => {
      const problem = builder.nameProblem(name);
      if (problem) throw new Error(problem);
    },
    logger: recordingLogger(logs),
    consulState: () => daemon.kernel.resolve(consulClientToken).connectionState(),
    ...(options.bodyLimitBytes !== undefined ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
  });
  return { app, daemon, logs, stop: () => daemon.stop() };
}
