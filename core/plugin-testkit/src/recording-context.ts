/**
 * @module An InputContext that records what a source publishes and triggers, so tests can
 * assert exactly which Consul changes ran the task. The watcher is passed in (a real one).
 */
import type {
  InputContext, InputVariable, LogFields, Logger, QueryWatcher, TriggerReason,
} from "@cts-runtime/plugin-api";

export interface RecordingContext extends InputContext {
  readonly published: { variable: InputVariable; value: unknown }[];
  readonly triggers: TriggerReason[];
  readonly logs: { level: string; message: string; fields?: LogFields }[];
  readonly abort: AbortController;
}

export function recordingContext(watcher: QueryWatcher): RecordingContext {
  const abort = new AbortController();
  const logs: RecordingContext["logs"] = [];
  const published: RecordingContext["published"] = [];
  const triggers: TriggerReason[] = [];
  return {
    watcher,
    logger: recordingLogger("test", logs),
    signal: abort.signal,
    abort,
    published,
    triggers,
    logs,
    publish(variable, value) {
      published.push({ variable, value: structuredClone(value) });
    },
    trigger(reason) {
      triggers.push(reason);
    },
  };
}

/** The last value published for `variable`. */
export function latest(ctx: RecordingContext, variable: InputVariable): unknown {
  return ctx.published.filter((p) => p.variable === variable).at(-1)?.value;
}

function recordingLogger(name: string, logs: RecordingContext["logs"]): Logger {
  const log = (level: string) => (message: string, fields?: LogFields) => {
    logs.push({ level, message, ...(fields ? { fields } : {}) });
  };
  return {
    name,
    trace: log("TRACE"), debug: log("DEBUG"), info: log("INFO"), warn: log("WARN"), error: log("ERROR"),
    child: (child) => recordingLogger(`${name}.${child}`, logs),
  };
}
