/**
 * @module The plugin's options: a global default destination and policy, and per-task overrides
 * keyed by task name (`tasks = { "web" = { on = "all" } }`). Per-task settings live here rather than
 * in the task block because the contract lets only drivers add task fields; keyed by name, they also
 * cover tasks created through the API.
 */
import { CtsError, type JsonSchema, type OptionsOf, parseGoDuration } from "../../../core/plugin-api/mod.ts";

const destinationFields = {
  url: { type: "string", format: "uri", pattern: "^https?://", description: "Where the webhook is POSTed (http or https)." },
  on: {
    type: "string", enum: ["all", "failures", "changes", "never"],
    description: "Which ended runs notify: all, failures, changes (the result differs from the task's previous run), never.",
  },
  secret: { type: "string", minLength: 1, description: "HMAC-SHA256 key of the X-CTS-Signature header." },
  secret_env: { type: "string", minLength: 1, description: "The environment variable holding the HMAC key." },
  body_template: { type: "string", minLength: 1, description: "The request body with {{field}} placeholders (Slack, Teams)." },
  headers: { type: "object", additionalProperties: { type: "string" }, description: "Extra request headers (values are secret)." },
} as const satisfies Readonly<Record<string, JsonSchema>>;

const destinationSchema = { type: "object", additionalProperties: false, properties: destinationFields } as const satisfies JsonSchema;

export const notifierOptionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...destinationFields,
    tasks: {
      type: "object",
      description: "Per-task overrides of the fields above, by task name.",
      additionalProperties: destinationSchema,
    },
    retry: {
      type: "object", additionalProperties: false,
      properties: {
        attempts: { type: "integer", minimum: 1, maximum: 20, default: 5 },
        initial_backoff: { type: "string", format: "go-duration", default: "1s" },
        max_backoff: { type: "string", format: "go-duration", default: "30s" },
      },
      default: {},
    },
    timeout: { type: "string", format: "go-duration", default: "10s", description: "Per request." },
    queue_size: { type: "integer", minimum: 1, maximum: 10000, default: 100, description: "Pending notifications kept per URL." },
    drain_timeout: { type: "string", format: "go-duration", default: "5s", description: "How long stopping waits for pending ones." },
  },
} as const satisfies JsonSchema;

/** The plugin's options as the kernel hands them over: checked, defaults filled in (`retry`'s too), frozen. */
export type NotifierOptions = OptionsOf<typeof notifierOptionsSchema>;

/** A destination's fields as written: the default one (at the top level) or a task's override. */
type DestinationFields = OptionsOf<typeof destinationSchema>;

/** Which ended runs notify: every run that reached the driver, failed ones, or a change of result. */
export type NotifyOn = NonNullable<DestinationFields["on"]>;

/** Where and how one task's notifications go (the default merged with the task's override). */
export interface Destination {
  readonly url: string;
  readonly on: NotifyOn;
  /** HMAC-SHA256 key; "" sends unsigned requests. */
  readonly secret: string;
  /** A body with `{{field}}` placeholders (Slack, Teams); absent: the JSON body. */
  readonly bodyTemplate?: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Timing and bounds of delivery, in milliseconds. */
export interface DeliverySettings {
  readonly attempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly timeoutMs: number;
  readonly queueSize: number;
  readonly drainTimeoutMs: number;
}

// The schema's go-duration format is the check; the defaults are the schema's.
const ms = (text: string): number => parseGoDuration(text)!;

export function deliverySettings(options: Pick<NotifierOptions, "retry" | "timeout" | "queue_size" | "drain_timeout">): DeliverySettings {
  return {
    attempts: options.retry.attempts,
    initialBackoffMs: ms(options.retry.initial_backoff),
    maxBackoffMs: ms(options.retry.max_backoff),
    timeoutMs: ms(options.timeout),
    queueSize: options.queue_size,
    drainTimeoutMs: ms(options.drain_timeout),
  };
}

/**
 * Each task's destination: the task's override on top of the default; `undefined` when the task
 * notifies nobody. A destination that notifies without a URL, or names an unset environment
 * variable, is a configuration error (the kernel reports it at start-up).
 */
export function destinationResolver(
  options: DestinationFields & Pick<NotifierOptions, "tasks">, environment: Readonly<Record<string, string | undefined>>,
): { readonly destinationOf: (task: string) => Destination | undefined; readonly destinations: readonly Destination[] } {
  const resolve = (fields: DestinationFields, where: string): Destination | undefined => {
    const on = fields.on ?? "failures";
    if (on === "never") return undefined;
    if (fields.url === undefined) {
      if (where === "") return undefined;
      throw new CtsError("CTS_ERR_PLUGIN_OPTIONS", `Cannot configure notifications for ${where}: no url (set url here or as the default)`);
    }
    let secret = fields.secret ?? "";
    if (fields.secret_env !== undefined) {
      secret = environment[fields.secret_env] ?? "";
      if (secret === "") {
        throw new CtsError("CTS_ERR_PLUGIN_OPTIONS", `Cannot configure notifications for ${where || "the default"}: environment variable ${fields.secret_env} is not set`);
      }
    }
    return {
      url: fields.url, on, secret, headers: fields.headers ?? {},
      ...(fields.body_template !== undefined ? { bodyTemplate: fields.body_template } : {}),
    };
  };
  const base: DestinationFields = options;
  const fallback = resolve(base, "");
  const perTask = new Map<string, Destination | undefined>();
  for (const [task, override] of Object.entries(options.tasks ?? {})) {
    // A task's secret_env replaces the default's secret, and the other way round.
    const merged: DestinationFields = override.secret !== undefined || override.secret_env !== undefined
      ? { ...base, secret: undefined, secret_env: undefined, ...override }
      : { ...base, ...override };
    perTask.set(task, resolve(merged, `task "${task}"`));
  }
  const destinations = [fallback, ...perTask.values()].filter((d): d is Destination => d !== undefined);
  return { destinationOf: (task) => (perTask.has(task) ? perTask.get(task) : fallback), destinations };
}
