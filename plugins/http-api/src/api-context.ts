/** @module What the API's route modules share: the engine, the task mapper, the logger. */
import type { ConsulConnectionState, Logger, TaskConfig, TaskManager } from "../../../core/plugin-api/mod.ts";
import type { Ajv } from "ajv";
import type { EventStreamHub } from "./event-stream-hub.ts";
import type { RegisteredBlocks } from "./schemas/registered-task-schema.ts";

export interface ApiDeps {
  readonly tasks: TaskManager;
  /**
   * Turns the API's task object (already schema-checked) into a validated `TaskConfig` with
   * the daemon's defaults; throws (CtsError `CTS_ERR_CONFIG_INVALID`) when the task is invalid.
   */
  readonly normalizeTask: (apiTask: Readonly<Record<string, unknown>>, labels?: Readonly<Record<string, string>>) => TaskConfig;
  /** Throws when `name` is not a valid task name. */
  readonly validateTaskName: (name: string) => void;
  readonly logger: Logger;
  /** Beyond CTS: whether Consul is reachable, reported by `/v1/status` next to CTS's summary. */
  readonly consulState?: () => ConsulConnectionState;
  /** Beyond CTS: serves `GET /v1/events` from it when set. */
  readonly eventStream?: EventStreamHub;
  /**
   * The condition and module_input labels plugins registered, read at the first task create (the
   * registries are complete by then). @default none beyond CTS's built-in types
   */
  readonly registeredBlocks?: () => RegisteredBlocks;
  /** Largest accepted request body. @default 1 MiB */
  readonly bodyLimitBytes?: number;
}

export interface RouteContext extends ApiDeps {
  readonly ajv: Ajv;
}
