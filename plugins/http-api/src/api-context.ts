/** @module What the API's route modules share: the engine, the task mapper, the logger. */
import type { ConsulConnectionState, Logger, TaskConfig, TaskManager } from "../../../core/plugin-api/mod.ts";
import type { Ajv } from "ajv";
import type { EventStreamHub } from "./event-stream-hub.ts";
import type { ApiBlocks, RegisteredBlocks } from "./api-blocks.ts";

export interface ApiDeps {
  readonly tasks: TaskManager;
  /**
   * Turns the API's task object (already schema-checked) into a validated `TaskConfig` with
   * the daemon's defaults; throws (CtsError `CTS_ERR_CONFIG_INVALID`) when the task is invalid.
   * `blocks` maps its condition and module inputs to config blocks (`normalizeApiTask` does).
   */
  readonly normalizeTask: (apiTask: Readonly<Record<string, unknown>>, blocks?: ApiBlocks) => TaskConfig;
  /** Throws when `name` is not a valid task name. */
  readonly validateTaskName: (name: string) => void;
  readonly logger: Logger;
  /** Beyond CTS: whether Consul is reachable, reported by `/v1/status` next to CTS's summary. */
  readonly consulState?: () => ConsulConnectionState;
  /** Beyond CTS: serves `GET /v1/events` from it when set. */
  readonly eventStream?: EventStreamHub;
  /**
   * The condition, module_input and driver factories plugins registered, read at the first request
   * that needs them (the registries are complete by then); their `api` faces say how each block looks
   * in the API, drivers' `taskBlocks` which task fields they add. @default none: blocks are passed on
   * and shown as they are, and no driver field is accepted
   */
  readonly registeredBlocks?: () => RegisteredBlocks;
  /** Largest accepted request body. @default 1 MiB */
  readonly bodyLimitBytes?: number;
}

export interface RouteContext extends ApiDeps {
  readonly ajv: Ajv;
  /** The registered block types (`registeredBlocks`), read once. */
  readonly blocks: () => ApiBlocks;
}
