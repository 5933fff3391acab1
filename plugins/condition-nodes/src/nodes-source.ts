/**
 * @module Watches the catalog's nodes for one task through the engine's shared watcher (one blocking
 * query per distinct query across all tasks). Publishes the node list whenever it renders differently
 * (a node joined, left, or changed address, tagged addresses or metadata); Consul index bumps that
 * change none of that publish nothing. A condition then asks for a run. A permanent error of the
 * query (unknown datacenter, bad filter) rejects `start` when it comes first, and is reported later.
 */
import { CtsError, type InputContext, type InputSource, type InputVariable } from "@cts-runtime/plugin-api";
import type { NodesModuleInputOptions } from "./nodes-options.ts";
import { nodesQuery } from "./nodes-query.ts";
import { nodeEntries, NODES_VARIABLE } from "./nodes-value.ts";

export class NodesSource implements InputSource {
  readonly variable?: InputVariable;
  readonly #options: NodesModuleInputOptions;
  readonly #triggers: boolean;
  #unsubscribe: (() => void) | undefined;
  #last: string | undefined;
  #started = false;
  #stopped = false;

  /** `options` as the kernel decoded them; `render`: whether it publishes the `nodes` variable. */
  constructor(options: NodesModuleInputOptions, render: boolean, triggers: boolean) {
    if (render) this.variable = NODES_VARIABLE;
    this.#options = options;
    this.#triggers = triggers;
  }

  start(ctx: InputContext): Promise<void> {
    if (this.#started) throw new CtsError("CTS_ERR_TASK", "Cannot start a nodes source twice: create one per task");
    this.#started = true;
    const query = nodesQuery(this.#options);
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const settle = (error?: Error): void => {
        if (ready) {
          if (error) ctx.reportError?.(error);
          return;
        }
        ready = true;
        if (error) {
          this.stop();
          reject(error);
        } else resolve();
      };
      ctx.signal.addEventListener("abort", () => {
        this.stop();
        settle();
      }, { once: true });
      if (ctx.signal.aborted) return settle();
      this.#unsubscribe = ctx.watcher.subscribe(query, (result) => {
        if (this.#stopped) return;
        this.#render(ctx, nodeEntries(result.data), query.key, ready);
        settle();
      }, (error) => {
        if (!this.#stopped) settle(error);
      });
    });
  }

  #render(ctx: InputContext, nodes: unknown[], detail: string, started: boolean): void {
    const json = JSON.stringify(nodes);
    if (json === this.#last) {
      if (this.#triggers) ctx.unchanged?.({ kind: "dependency", detail });
      return;
    }
    this.#last = json;
    if (this.variable !== undefined) ctx.publish(this.variable, nodes);
    else ctx.observe?.(nodes);
    // The first value only starts the task: the engine decides what a task does with its first data.
    if (started && this.#triggers) ctx.trigger({ kind: "dependency", detail });
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
