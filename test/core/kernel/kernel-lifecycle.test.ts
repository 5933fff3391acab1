// @integration: one case serves mounted handlers on a real port (the kernel's httpListen).
import { describe, expect, it } from "vitest";
import {
  configToken, createToken, defineService, definePlugin, driverRegistryToken, httpRouterToken, isCtsError, loggerToken,
  type PluginDefinition,
} from "../../../core/plugin-api/mod.ts";
import { createKernel, type KernelOptions } from "../../../core/kernel/kernel.ts";
import { daemonRun, recordingLogSink, testConfig } from "./kernel-fixtures.ts";

interface Counter { next(): number }
const counterToken = createToken<Counter>("test.counter");

/** A plugin that records init/start/stop into `journal`. */
function journaled(id: string, journal: string[], extra: Partial<Parameters<typeof definePlugin>[0]> = {}): PluginDefinition {
  return definePlugin({
    id,
    kind: "service",
    deps: {},
    ...extra,
    init(_deps, ctx) {
      journal.push(`init ${id}`);
      ctx.lifecycle.onStart(() => void journal.push(`start ${id}`));
      ctx.lifecycle.onStop(() => void journal.push(`stop ${id}`));
    },
  } as Parameters<typeof definePlugin>[0]);
}

function kernelOptions(plugins: PluginDefinition[], extra: Partial<KernelOptions> = {}): KernelOptions {
  return { config: testConfig(), runOptions: daemonRun, logSink: recordingLogSink(), builtins: [], plugins, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a rejection");
}

describe("kernel lifecycle", () => {
  it("initialises providers before consumers, starts in that order and stops in reverse", async () => {
    const journal: string[] = [];
    const consumer = journaled("consumer", journal, { deps: { counter: counterToken } });
    let n = 0;
    const provider = definePlugin({
      id: "provider",
      kind: "service",
      deps: {},
      provides: [defineService({
        token: counterToken,
        deps: { logger: loggerToken },
        create: () => ({ next: () => ++n }),
        dispose: () => void journal.push("dispose counter"),
      })],
      init(_deps, ctx) {
        journal.push("init provider");
        ctx.lifecycle.onStart(() => void journal.push("start provider"));
        ctx.lifecycle.onStop(() => void journal.push("stop provider"));
      },
    });
    const kernel = await createKernel(kernelOptions([consumer, provider]));
    expect(kernel.plugins.map((p) => p.id)).toEqual(["provider", "consumer"]);
    expect(kernel.state).toBe("created");
    await kernel.start();
    expect(kernel.state).toBe("running");
    expect(kernel.resolve(counterToken).next()).toBe(1);
    await kernel.stop();
    await kernel.stop();
    expect(kernel.state).toBe("stopped");
    expect(journal).toEqual([
      "init provider", "init consumer", "start provider", "start consumer",
      "stop consumer", "stop provider", "dispose counter",
    ]);
  });

  it("gives each plugin its own logger and resolved deps", async () => {
    const seen: string[] = [];
    const a = definePlugin({
      id: "alpha",
      kind: "service",
      deps: { logger: loggerToken, config: configToken },
      init({ logger, config }) {
        seen.push(`${logger.name} ${config.id}`);
      },
    });
    const b = definePlugin({
      id: "ha-consul",
      kind: "service",
      logName: "ha",
      deps: { logger: loggerToken, config: configToken },
      init({ logger }) {
        seen.push(logger.child("compat").name);
      },
    });
    const kernel = await createKernel(kernelOptions([a, b]));
    await kernel.init();
    expect(seen).toEqual(["alpha cts-test", "ha.compat"]);
    expect(() => kernel.resolve(loggerToken)).toThrow(/core\.logger/);
    await kernel.stop();
  });

  it("stops the plugins already initialised when one init throws, and names the plugin", async () => {
    const journal: string[] = [];
    const boom = definePlugin({
      id: "boom",
      kind: "service",
      deps: { counter: counterToken },
      init() {
        throw new Error("disk on fire");
      },
    });
    const provider = journaled("provider", journal, {
      provides: [defineService({ token: counterToken, deps: {}, create: () => ({ next: () => 0 }), dispose: () => void journal.push("dispose counter") })],
    });
    const later = journaled("later", journal, { deps: { counter: counterToken } });
    const kernel = await createKernel(kernelOptions([provider, boom, later]));
    const error = await rejection(kernel.start());
    expect(error.code).toBe("CTS_ERR_PLUGIN_INIT");
    expect(error.message).toBe(`Cannot initialize plugin "boom": disk on fire`);
    expect((error.cause as Error).message).toBe("disk on fire");
    expect(kernel.state).toBe("failed");
    expect(journal).toEqual(["init provider", "stop provider", "dispose counter"]);
    await kernel.stop();
    expect(journal).toHaveLength(3);
  });

  it("stops the started plugins when a start hook fails", async () => {
    const journal: string[] = [];
    const first = journaled("first", journal);
    const failing = definePlugin({
      id: "failing",
      kind: "service",
      deps: {},
      init(_deps, ctx) {
        ctx.lifecycle.onStart(() => {
          throw new Error("port taken");
        });
      },
    });
    const kernel = await createKernel(kernelOptions([first, failing]));
    const error = await rejection(kernel.start());
    expect(error.message).toBe(`Cannot start plugin "failing": port taken`);
    expect(journal).toEqual(["init first", "start first", "stop first"]);
  });

  it("runs every stop hook even when one fails or hangs, and reports all failures at once", async () => {
    const journal: string[] = [];
    const a = journaled("a", journal);
    const hanging = definePlugin({
      id: "hanging",
      kind: "service",
      deps: {},
      init(_deps, ctx) {
        ctx.lifecycle.onStop(() => new Promise<void>(() => {}), { timeoutMs: 20 });
      },
    });
    const throwing = definePlugin({
      id: "throwing",
      kind: "service",
      deps: {},
      init(_deps, ctx) {
        ctx.lifecycle.onStop(() => {
          throw new Error("cannot flush");
        });
      },
    });
    const z = journaled("z", journal);
    const kernel = await createKernel(kernelOptions([a, hanging, throwing, z]));
    await kernel.start();
    const error = await rejection(kernel.stop());
    expect(error.code).toBe("CTS_ERR_PLUGIN_STOP");
    expect(error.message).toContain(`stop hook of plugin "hanging": timed out after 20 ms`);
    expect(error.message).toContain(`stop hook of plugin "throwing": cannot flush`);
    expect(journal).toEqual(["init a", "init z", "start a", "start z", "stop z", "stop a"]);
    expect(kernel.state).toBe("stopped");
    // stop() stays idempotent: the same outcome, hooks not run twice.
    expect(await rejection(kernel.stop())).toBe(error);
    expect(journal).toHaveLength(6);
  });

  it("aborts the plugin signal when the kernel stops", async () => {
    let signal: AbortSignal | undefined;
    const p = definePlugin({ id: "watcher", kind: "service", deps: {}, init(_d, ctx) { signal = ctx.signal; } });
    const kernel = await createKernel(kernelOptions([p]));
    await kernel.start();
    expect(signal?.aborted).toBe(false);
    await kernel.stop();
    expect(signal?.aborted).toBe(true);
  });

  it("freezes the registries at start", async () => {
    let late: (() => void) | undefined;
    const p = definePlugin({
      id: "driver-late",
      kind: "driver",
      deps: { drivers: driverRegistryToken },
      init({ drivers }) {
        drivers.register({ name: "early", create: () => Promise.reject(new Error("unused")) });
        late = () => drivers.register({ name: "late", create: () => Promise.reject(new Error("unused")) });
      },
    });
    const kernel = await createKernel(kernelOptions([p]));
    await kernel.start();
    let error: unknown;
    try {
      late?.();
    } catch (caught) {
      error = caught;
    }
    expect(isCtsError(error) && error.code).toBe("CTS_ERR_REGISTRY_FROZEN");
    expect(kernel.resolve(driverRegistryToken).names()).toEqual(["early"]);
    await kernel.stop();
  });

  it("serves mounted handlers over HTTP only when asked to listen", async () => {
    const api = definePlugin({
      id: "api-hello",
      kind: "api",
      deps: { router: httpRouterToken },
      init({ router }) {
        router.mount("/v1", (request) => Response.json({ path: new URL(request.url).pathname }));
      },
    });
    const kernel = await createKernel(kernelOptions([api], { httpListen: { hostname: "127.0.0.1", port: 0 } }));
    await kernel.start();
    const url = kernel.httpUrl;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${url}/v1/tasks`)).json()).toEqual({ path: "/v1/tasks" });
    const missing = await fetch(`${url}/other`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { message: "no handler for /other" } });
    await kernel.stop();
    expect(kernel.httpUrl).toBeUndefined();
    await expect(fetch(`${url}/v1/tasks`)).rejects.toThrow();

    const quiet = await createKernel(kernelOptions([api]));
    await quiet.start();
    expect(quiet.httpUrl).toBeUndefined();
    await quiet.stop();
  });
});

describe("kernel scopes and limits", () => {
  it("gives every consumer of a plugin-scoped service its own instance", async () => {
    const tagToken = createToken<{ owner: string }>("test.tag", "plugin");
    const got: string[] = [];
    const provider = definePlugin({
      id: "tagger",
      kind: "service",
      deps: {},
      provides: [defineService({ token: tagToken, deps: { logger: loggerToken }, create: ({ logger }) => ({ owner: logger.name }) })],
    });
    const consumer = (id: string) =>
      definePlugin({ id, kind: "service", deps: { tag: tagToken }, init({ tag }) { got.push(`${id}:${tag.owner}`); } });
    const kernel = await createKernel(kernelOptions([consumer("one"), provider, consumer("two")]));
    await kernel.init();
    expect(got).toEqual(["one:one", "two:two"]);
    expect(() => kernel.resolve(tagToken)).toThrow(/test\.tag/);
    await kernel.stop();
  });

  it("gives up on an init that never finishes, and says which plugin", async () => {
    const stuck = definePlugin({ id: "stuck", kind: "service", deps: {}, init: () => new Promise<void>(() => {}) });
    const kernel = await createKernel(kernelOptions([stuck], { initTimeoutMs: 20 }));
    const error = await rejection(kernel.init());
    expect(error.code).toBe("CTS_ERR_PLUGIN_INIT");
    expect(error.message).toBe(`Cannot initialize plugin "stuck": timed out after 20 ms`);
  });

  it("refuses a second start and a start hook added after start", async () => {
    let addLate: (() => void) | undefined;
    const p = definePlugin({
      id: "late-hook",
      kind: "service",
      deps: {},
      init(_deps, ctx) {
        addLate = () => ctx.lifecycle.onStart(() => {});
      },
    });
    const kernel = await createKernel(kernelOptions([p]));
    await kernel.start();
    expect((await rejection(kernel.start())).message).toBe("Cannot start the kernel: start() was already called");
    expect(() => addLate?.()).toThrow(`Cannot add a start hook to plugin "late-hook": the kernel has already started`);
    await kernel.stop();
  });

  it("records shutdown requests by default and resolves core services before init", async () => {
    const kernel = await createKernel(kernelOptions([]));
    expect(kernel.resolve(configToken).id).toBe("cts-test");
    await kernel.stop();
    expect(kernel.state).toBe("stopped");
  });
});
