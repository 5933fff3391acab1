/**
 * Type tests for the plugin contract: what `definePlugin` and `defineService` infer, and which
 * wrong registrations do not compile. The checks are the type checker's: `npx tsc -p . --noEmit`
 * (a step of `npm test`) checks this file, every `@ts-expect-error` line must carry an error
 * (an unused one is error TS2578), and the last test proves both of those facts.
 * Beyond CTS (Go plugins have no TypeScript contract); nothing here pins a CTS behaviour.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { assertType, describe, expect, expectTypeOf, it } from "vitest";
import {
  type ConditionFactory, conditionRegistryToken, createToken, defineService, definePlugin, type DriverFactory,
  driverRegistryToken, type FileSystem, fileSystemToken, type InputSource, type Logger, loggerToken,
  type PluginContext, type PluginDefinition, type PluginLifecycle, type Registry, type ResolvedDeps, type ServiceFactory,
  type Token,
  type TokenScope,
} from "../../../core/plugin-api/mod.ts";

interface Clock {
  now(): number;
}
const clockToken: Token<Clock> = createToken("acme.clock");

interface AcmeOptions {
  readonly binary: string;
  readonly retries: number;
}

const echoDriver: DriverFactory = {
  name: "acme",
  create: () => Promise.reject(new Error("not used")),
};
const idleSource: InputSource = { variable: "services", start: () => Promise.resolve(), stop: () => {} };
const idleCondition: ConditionFactory = { name: "acme", create: () => idleSource };

describe("definePlugin infers deps and options", () => {
  it("types each dep as the service its token carries", () => {
    const plugin = definePlugin({
      id: "driver-acme",
      kind: "driver",
      deps: { drivers: driverRegistryToken, logger: loggerToken, files: fileSystemToken, clock: clockToken },
      init(deps) {
        expectTypeOf(deps.drivers).toEqualTypeOf<Registry<DriverFactory>>();
        expectTypeOf(deps.logger).toEqualTypeOf<Logger>();
        expectTypeOf(deps.files).toEqualTypeOf<FileSystem>();
        expectTypeOf(deps.clock).toEqualTypeOf<Clock>();
        expectTypeOf(deps).toEqualTypeOf<ResolvedDeps<{
          drivers: typeof driverRegistryToken; logger: typeof loggerToken; files: typeof fileSystemToken; clock: typeof clockToken;
        }>>();
        deps.drivers.register(echoDriver);
      },
    });
    expectTypeOf(plugin).toExtend<PluginDefinition>();
    expectTypeOf(plugin.deps.clock).toEqualTypeOf<Token<Clock>>();
    expect(plugin.$$type).toBe("@cts-runtime/plugin");
  });

  it("accepts no options unless init's context names a type", () => {
    definePlugin({
      id: "condition-acme",
      kind: "condition",
      deps: { conditions: conditionRegistryToken },
      init({ conditions }, ctx) {
        expectTypeOf(ctx.options).toEqualTypeOf<Record<string, never>>();
        expectTypeOf(conditions).toEqualTypeOf<Registry<ConditionFactory>>();
        conditions.register(idleCondition);
      },
    });
  });

  it("takes the options type from init's context and still infers deps", () => {
    const plugin = definePlugin({
      id: "driver-acme",
      kind: "driver",
      deps: { drivers: driverRegistryToken },
      init({ drivers }, ctx: PluginContext<AcmeOptions>) {
        expectTypeOf(ctx.options.binary).toEqualTypeOf<string>();
        expectTypeOf(ctx.options.retries).toEqualTypeOf<number>();
        expectTypeOf(drivers).toEqualTypeOf<Registry<DriverFactory>>();
      },
    });
    expectTypeOf(plugin).toEqualTypeOf<PluginDefinition<AcmeOptions, { drivers: typeof driverRegistryToken }>>();
  });

  it("types a service factory's deps and instance from its tokens", () => {
    const clockService = defineService({
      token: clockToken,
      deps: { logger: loggerToken },
      create({ logger }) {
        expectTypeOf(logger).toEqualTypeOf<Logger>();
        return { now: () => 0 };
      },
      dispose(instance) {
        expectTypeOf(instance).toEqualTypeOf<Clock>();
      },
    });
    expectTypeOf(clockService).toEqualTypeOf<ServiceFactory<Clock, { logger: typeof loggerToken }>>();
    assertType<PluginDefinition>(definePlugin({ id: "acme-clock", kind: "service", deps: {}, provides: [clockService] }));
  });

  it("gives dispose the concrete instance create returns, and create the plugin's lifecycle", () => {
    class StoppableClock implements Clock {
      now(): number {
        return 0;
      }
      stop(): void {}
    }
    const clockService = defineService({
      token: clockToken,
      deps: {},
      create(_deps, ctx) {
        expectTypeOf(ctx.lifecycle).toEqualTypeOf<PluginLifecycle>();
        return new StoppableClock();
      },
      dispose(instance) {
        expectTypeOf(instance).toEqualTypeOf<StoppableClock>();
        instance.stop();
      },
    });
    assertType<ServiceFactory<Clock>>(clockService);
  });
});

describe("tokens across installed copies of the contract", () => {
  it("infers the service of a token typed by another copy", () => {
    // What another copy's .d.ts declares (a plugin's own install of @cts-runtime/plugin-api, or the
    // copy inside the cts-runtime package the testkit's kernel comes from).
    interface OtherCopyToken<T> {
      readonly id: string;
      readonly scope: TokenScope;
      readonly key: symbol;
      readonly "~service"?: T;
    }
    const resolve = <T>(token: Token<T>): T => token as never;
    const foreign = clockToken as OtherCopyToken<Clock>;
    expectTypeOf(resolve(foreign)).toEqualTypeOf<Clock>();
    expectTypeOf<ResolvedDeps<{ clock: OtherCopyToken<Clock> }>>().toEqualTypeOf<{ readonly clock: Clock }>();
  });
});

describe("a wrong registration does not compile", () => {
  it("rejects deps, kinds, services and registrations that do not fit", () => {
    definePlugin({
      id: "driver-acme",
      kind: "driver",
      deps: { drivers: driverRegistryToken, conditions: conditionRegistryToken },
      init({ drivers, conditions }, ctx) {
        // @ts-expect-error a condition factory is not a driver factory
        drivers.register(idleCondition);
        // @ts-expect-error a driver factory is not a condition factory
        conditions.register(echoDriver);
        // @ts-expect-error a registry holds named entries only
        drivers.register({ create: echoDriver.create });
        // @ts-expect-error plugins without an options type accept no options
        void ctx.options.binary.length;
      },
    });

    // @ts-expect-error a dep must be a token, not a service name
    definePlugin({ id: "driver-acme", kind: "driver", deps: { drivers: "core.driverRegistry" } });

    // @ts-expect-error `deps` is required, even when empty
    definePlugin({ id: "driver-acme", kind: "driver" });

    // @ts-expect-error the kind is one of PluginKind
    definePlugin({ id: "driver-acme", kind: "drivers", deps: {} });
    // @ts-expect-error the kinds no plugin had ("command", "module-input") are gone
    definePlugin({ id: "inputs-acme", kind: "module-input", deps: {} });

    definePlugin({
      id: "driver-acme",
      kind: "driver",
      deps: { logger: loggerToken },
      // @ts-expect-error init receives only the deps it declared
      init({ drivers }) {
        void drivers;
      },
    });

    definePlugin({
      id: "driver-acme",
      kind: "driver",
      deps: { logger: loggerToken },
      init({ logger }, ctx: PluginContext<AcmeOptions>) {
        // @ts-expect-error a Logger is not a driver registry
        logger.register(echoDriver);
        // @ts-expect-error typed options are checked too
        void ctx.options.retries.toUpperCase();
      },
    });

    defineService({
      token: clockToken,
      deps: {},
      // @ts-expect-error a service must create what its token carries
      create: () => 42,
    });

    // @ts-expect-error `provides` lists service factories, not tokens
    definePlugin({ id: "acme-clock", kind: "service", deps: {}, provides: [clockToken] });
  });
});

describe("the type checker enforces these lines", () => {
  it("checks this file with the repository's tsconfig, and fails on an unused @ts-expect-error", async () => {
    const root = resolve(import.meta.dirname, "../../..");
    const tsc = resolve(root, "node_modules/.bin/tsc");
    const run = (args: string[]) =>
      promisify(execFile)(tsc, args, { cwd: root }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? "" }),
      );
    const listed = await run(["-p", ".", "--listFilesOnly"]);
    expect(listed.stdout).toContain(relative(root, import.meta.filename).replaceAll("\\", "/"));

    const dir = await mkdtemp(join(root, "test/core/plugin-api/.unused-expect-error-"));
    try {
      await writeFile(join(dir, "unused.ts"), "// @ts-expect-error nothing is wrong on the next line\nexport const fine: number = 1;\n");
      await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../../../tsconfig.json", include: ["unused.ts"] }));
      const checked = await run(["-p", dir, "--noEmit"]);
      expect(checked.code).not.toBe(0);
      expect(checked.stdout).toContain("TS2578");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
