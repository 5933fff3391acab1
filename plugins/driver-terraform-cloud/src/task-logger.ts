/**
 * @module The driver's own `driver.tfc` logger (CTS's name for these lines) carrying the task's
 * name, used instead of the engine's task-scoped `driver.<label>` logger. A line's own fields come
 * first (CTS's, which runbooks match), the task's name after them.
 */
import type { LogFields, Logger } from "../../../core/plugin-api/mod.ts";

export function withFields(logger: Logger, fields: LogFields): Logger {
  const merged = (more?: LogFields): LogFields => ({ ...more, ...fields });
  return {
    name: logger.name,
    trace: (message, more) => logger.trace(message, merged(more)),
    debug: (message, more) => logger.debug(message, merged(more)),
    info: (message, more) => logger.info(message, merged(more)),
    warn: (message, more) => logger.warn(message, merged(more)),
    error: (message, more) => logger.error(message, merged(more)),
    child: (name, more) => logger.child(name, merged(more)),
    ...(logger.named ? { named: (name: string) => withFields(logger.named!(name), fields) } : {}),
  };
}
