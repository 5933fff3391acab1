/**
 * @module The plugin's options: a global default destination and policy, and per-task overrides
 * keyed by task name (`tasks = { "web" = { on = "all" } }`). Per-task settings live here rather than
 * in the task block because the contract lets only drivers add task fields; keyed by name, they also
 * cover tasks created through the API.
 */
import { CtsError, parseGoDuration, type JsonSchema } from "../../../core/plugin-api/mod.ts";

/** Which ended runs notify: every run that reached the driver, failed ones, or a change of result. */
export type NotifyOn = "all" | "failures" | "changes" | "never";

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

interface DestinationFields {
  readonly url?: string;
  readonly on?: NotifyOn;
  readonly secret?: string;
  readonly secret_env?: string;
  readonly body_template?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface NotifierOptions extends DestinationFields {
  readonly tasks?: Readonly<Record<string, DestinationFields>>;
  readonly retry?: { readonly attempts?: number; readonly initial_backoff?: string; readonly max_backoff?: string };
  readonly timeout?: string;
  readonly queue_size?: number;
  readonly drain_timeout?: string;
}

const destinationFields: Readonly<Record<string, JsonSchema>> = {
  url: { type: "string", format: "uri", pattern: "^https?://", description: "Where the webhook is POSTed (http or https)." },
  on: {
    type: "string", enum: ["all", "failures", "changes", "never"],
    description: "Which ended runs notify: all, failures, changes (the result differs from the task's previous run), never.",
  },
  secret: { type: "string", minLength: 1, description: "HMAC-SHA256 key of the X-CTS-Signature header." },
  secret_env: { type: "string", minLength: 1, description: "The environment variable holding the HMAC key." },
  body_template: { type: "string", minLength: 1, description: "The request body with {{field}} placeholders (Slack, Teams)." },
  headers: { type: "object", additionalProperties: { type: "string" }, description: "Extra request headers (values are secret)." },
};

export const notifierOptionsSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...destinationFields,
    tasks: {
      type: "object",
      description: "Per-task overrides of the fields above, by task name.",
      additionalProperties: { type: "object", additionalProperties: false, properties: destinationFields },
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
};

/** Timing and bounds of delivery, in milliseconds. */
export interface DeliverySettings {
  readonly attempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly timeoutMs: number;
  readonly queueSize: number;
  readonly drainTimeoutMs: number;
}

const ms = (text: string | undefined, fallback: string): number => parseGoDuration(text ?? fallback) ?? parseGoDuration(fallback)!;

export function deliverySettings(options: NotifierOptions): DeliverySettings {
  return {
    attempts: options.retry?.attempts ?? 5,
    initialBackoffMs: ms(options.retry?.initial_backoff, "1s"),
    maxBackoffMs: ms(options.retry?.max_backoff, "30s"),
    timeoutMs: ms(options.timeout, "10s"),
    queueSize: options.queue_size ?? 100,
    drainTimeoutMs: ms(options.drain_timeout, "5s"),
  };
}

/**
 * Each task's destination: the task's override on top of the default; `undefined` when the task
 * notifies nobody. A destination that notifies without a URL, or names an unset environment
 * variable, is a configuration error (the kernel reports it at start-up).
 */
export function destinationResolver(
  options: NotifierOptions, environment: Readonly<Record<string, string | undefined>>,
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
