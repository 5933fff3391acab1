/**
 * @module The condition / module-input conformance suite: what every source must do. `start`
 * resolves once the first value is published (at once for a source that renders nothing, like a
 * schedule), `stop` (or the context's abort) releases every blocking query, stopping twice is
 * harmless, module inputs never trigger, and a template assigns the variable its source renders.
 * The caller brings the Consul (the embedded dev server, say), a real watcher over it, and one
 * change per case that the source renders. A case's block is decoded as the kernel decodes it
 * (`decodeInputBlock`: schema, defaults, `validate`, frozen) before any hook sees it, so a factory
 * meets only checked options here as in the daemon. Each test makes its own source and context and,
 * even when it fails, stops the source and undoes its change, so no test starts from another's state.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import type {
  ConditionFactory, InputSource, ModuleInputFactory, QueryWatcher,
} from "@cts-runtime/plugin-api";
import { decodeInputBlock } from "cts-runtime";
import { eventually } from "./eventually.ts";
import { recordingContext } from "./recording-context.ts";

/** A watcher that counts what it holds open (the task engine's SharedQueryWatcher does). */
export interface CountingQueryWatcher extends QueryWatcher {
  stats(): { readonly open: number; readonly subscribers: number };
}

export interface ConditionConformanceCase {
  readonly label: string;
  readonly factory: ConditionFactory | ModuleInputFactory;
  /** The block's fields as a config file writes them; the suite decodes them as the kernel does. */
  readonly config: Record<string, unknown>;
  /** True for a condition (a change triggers the task), false for a module input (never triggers). */
  readonly condition: boolean;
  /**
   * Makes a Consul change this source renders; returns its undo. A source without a `variable`
   * (it renders nothing) passes when it triggers after this, e.g. a schedule's next tick.
   */
  readonly change: () => Promise<() => Promise<void>>;
  /** False for a source that never queries Consul (a schedule). @default true */
  readonly watches?: boolean;
}

export interface ConditionConformanceFixtures {
  /** The watcher sources subscribe through; read when each test runs (after the caller's beforeAll). */
  readonly watcher: () => CountingQueryWatcher;
  readonly cases: readonly ConditionConformanceCase[];
}

export function describeConditionConformance(name: string, fixtures: ConditionConformanceFixtures): void {
  describe(`condition conformance: ${name}`, () => {
    describe.each(fixtures.cases)("$label", ({ factory, config: written, condition, change, watches = true }) => {
      /** The block as the kernel hands it to its owner; a block the kernel would refuse fails the test that uses it. */
      const options = () => decodeInputBlock(factory, condition ? "condition" : "module_input", written);
      /** A new source, stopped when the test ends however it ends (stop is idempotent). */
      const newSource = (): InputSource => {
        const source = factory.create(options(), "conformance");
        onTestFinished(() => source.stop());
        return source;
      };

      it("resolves start with its first value published and no trigger", async () => {
        const ctx = recordingContext(fixtures.watcher());
        const source = newSource();
        await source.start(ctx);
        if (source.variable === undefined) {
          expect(ctx.published).toEqual([]);
        } else {
          expect(ctx.published).toHaveLength(1);
          expect(ctx.published[0]!.variable).toBe(source.variable);
        }
        expect(ctx.triggers).toEqual([]);
        source.stop();
      });

      it("releases every blocking query on stop, and stop is idempotent", async () => {
        const watcher = fixtures.watcher();
        const before = watcher.stats();
        const source = newSource();
        await source.start(recordingContext(watcher));
        if (watches) expect(watcher.stats().subscribers).toBeGreaterThan(before.subscribers);
        else expect(watcher.stats()).toEqual(before);
        source.stop();
        source.stop();
        expect(watcher.stats()).toEqual(before);
      });

      it("stops when the context aborts, even before the first value", async () => {
        const watcher = fixtures.watcher();
        const before = watcher.stats();
        const ctx = recordingContext(watcher);
        const source = newSource();
        const started = source.start(ctx);
        ctx.abort.abort();
        await started;
        expect(watcher.stats()).toEqual(before);
        expect(ctx.triggers).toEqual([]);
      });

      // CTS writes each block's template to terraform.tfvars.tmpl, where it assigns the variable the
      // block renders (a watch-only block's renders nothing); the same block always gives the same text.
      it.skipIf(factory.template === undefined)("gives a template that assigns what it renders", () => {
        const config = options();
        const text = factory.template!(config);
        expect(typeof text).toBe("string");
        expect(factory.template!(config)).toBe(text);
        const variable = factory.create(config, "conformance").variable;
        if (variable !== undefined) expect(text).toMatch(new RegExp(`(^|\\n)${variable} = `));
      });

      it(condition ? "is a condition that can trigger" : "never triggers", async () => {
        const ctx = recordingContext(fixtures.watcher());
        const source = newSource();
        await source.start(ctx);
        const undo = await change();
        onTestFinished(undo);
        if (source.variable === undefined) await eventually(() => ctx.triggers.length > 0, "the source to trigger");
        else await eventually(() => ctx.published.length >= 2, "the change to publish");
        expect(ctx.triggers.length > 0).toBe(condition);
        source.stop();
      });
    });
  });
}
