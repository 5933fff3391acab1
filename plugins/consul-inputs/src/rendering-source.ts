/**
 * @module The common life cycle of a Consul-backed condition or module input.
 *
 * Subclasses subscribe to the engine's shared watcher and hand every freshly built value to
 * `render`. Only a value whose rendering differs from the last one is published, so Consul
 * index bumps that change nothing the task sees (check output, same-value KV writes, spurious
 * wake-ups) never reach the engine. The first value resolves `start` and never triggers: the
 * engine decides what a task does with its first data (CTS runs every task once at start-up).
 * A permanent error of a query (unknown datacenter, bad filter, 400/403) rejects `start` when it
 * comes first, and is reported to the engine when it comes later.
 */
import { CtsError } from "../../../core/plugin-api/mod.ts";
import type {
  ConsulQuery, ConsulQueryResult, InputContext, InputSource, InputVariable,
} from "../../../core/plugin-api/mod.ts";

export interface RenderingSourceOptions {
  /** The task variable this source fills; `undefined` watches without publishing. */
  readonly variable: InputVariable | undefined;
  /** Conditions trigger runs; module inputs only supply data. */
  readonly triggers: boolean;
}

export abstract class RenderingSource<T> implements InputSource {
  readonly variable?: InputVariable;
  readonly #triggers: boolean;
  #ctx: InputContext | undefined;
  #last: { readonly json: string; readonly value: T } | undefined;
  #ready: (() => void) | undefined;
  #fail: ((error: Error) => void) | undefined;
  readonly #unsubscribes = new Set<() => void>();
  #stopped = false;

  constructor(options: RenderingSourceOptions) {
    if (options.variable !== undefined) this.variable = options.variable;
    this.#triggers = options.triggers;
  }

  /** Opens the subscriptions; called once from `start`. */
  protected abstract watch(ctx: InputContext): void;

  /** Whether a change from `previous` to `next` should run the task (conditions only). */
  protected shouldTrigger(_previous: T, _next: T): boolean {
    return true;
  }

  start(ctx: InputContext): Promise<void> {
    if (this.#ctx) throw new CtsError("CTS_ERR_TASK", "Cannot start an input source twice: create one per task");
    this.#ctx = ctx;
    return new Promise<void>((resolve, reject) => {
      this.#ready = resolve;
      this.#fail = reject;
      if (ctx.signal.aborted) return this.stop();
      ctx.signal.addEventListener("abort", () => this.stop(), { once: true });
      this.watch(ctx);
    });
  }

  stop(): void {
    this.#stopped = true;
    for (const unsubscribe of [...this.#unsubscribes]) unsubscribe();
    this.#unsubscribes.clear();
    this.#resolveReady();
  }

  protected get stopped(): boolean {
    return this.#stopped;
  }

  /** Subscribes through the shared watcher; the returned function (and `stop`) unsubscribes once. */
  protected subscribe(query: ConsulQuery, listener: (result: ConsulQueryResult) => void): () => void {
    let done = false;
    let unsubscribe: (() => void) | undefined;
    const drop = () => {
      if (done) return;
      done = true;
      this.#unsubscribes.delete(drop);
      unsubscribe?.();
    };
    this.#unsubscribes.add(drop);
    unsubscribe = this.#ctx!.watcher.subscribe(query, (result) => {
      if (!done && !this.#stopped) listener(result);
    }, (error) => {
      if (!done && !this.#stopped) this.#failed(error);
    });
    // The listener may have run (and dropped itself) synchronously inside subscribe.
    if (done) unsubscribe();
    return drop;
  }

  /** Publishes `value` if its rendering changed; triggers when allowed. `detail` names the cause. */
  protected render(value: T, detail: string): void {
    if (this.#stopped) return;
    const json = JSON.stringify(value);
    const previous = this.#last;
    if (previous?.json === json) {
      // New data that renders the same (a same-value KV write): no run, but the history shows it.
      if (this.#triggers) this.#ctx!.unchanged?.({ kind: "dependency", detail });
      return;
    }
    this.#last = { json, value };
    const ctx = this.#ctx!;
    // Unpublished data still decides whether a triggered run is needed (CTS runs on any change of it).
    if (this.variable !== undefined) ctx.publish(this.variable, value);
    else ctx.observe?.(value);
    if (previous === undefined) return this.#resolveReady();
    if (!this.#triggers) return;
    if (this.shouldTrigger(previous.value, value)) {
      ctx.logger.debug("condition input changed, requesting a run", { query: detail });
      ctx.trigger({ kind: "dependency", detail });
    } else {
      ctx.logger.trace("condition input changed without a reason to run", { query: detail });
    }
  }

  /** The last rendered value, if any. */
  protected get current(): T | undefined {
    return this.#last?.value;
  }

  #resolveReady(): void {
    const ready = this.#ready;
    this.#ready = undefined;
    this.#fail = undefined;
    ready?.();
  }

  /** Before the first value: `start` rejects (and nothing renders); after it: the engine hears of it. */
  #failed(error: Error): void {
    const fail = this.#fail;
    if (fail) {
      this.#ready = undefined;
      this.#fail = undefined;
      this.stop();
      fail(error);
      return;
    }
    this.#ctx?.reportError?.(error);
  }
}
