import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definePlugin, type PluginDefinition } from "../../../core/plugin-api/mod.ts";
import { createKernel, type KernelOptions } from "../../../core/kernel/kernel.ts";
import type { BuiltinPlugin } from "../../../core/kernel/builtin-plugins.ts";
import { daemonRun, recordingLogSink, testConfig } from "./kernel-fixtures.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cts-loader-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const plain = (id: string, extra: object = {}): PluginDefinition =>
  definePlugin({ id, kind: "service", deps: {}, ...extra }) as PluginDefinition;
const builtin = (id: string, module: unknown, when?: BuiltinPlugin["when"]): BuiltinPlugin => ({
  id,
  load: () => Promise.resolve(module),
  ...(when ? { when } : {}),
});

function options(extra: Partial<KernelOptions>): KernelOptions {
  return { config: testConfig(), runOptions: daemonRun, logSink: recordingLogSink(), builtins: [], ...extra };
}

async function failure(extra: Partial<KernelOptions>): Promise<Error & { code?: string }> {
  try {
    await createKernel(options(extra));
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected createKernel to fail");
}

/** Writes an ESM file into the temp dir and returns its path. */
async function moduleFile(name: string, source: string): Promise<string> {
  const path = join(dir, name);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, source);
  return path;
}

describe("plugin loader", () => {
  it("loads built-ins in list order, unwrapping default and default.default, and honours when", async () => {
    const kernel = await createKernel(options({
      builtins: [
        builtin("first", { default: plain("first") }),
        builtin("skipped", { default: plain("skipped") }, () => false),
        builtin("nested", { default: { default: plain("nested") } }),
        builtin("only-once", { default: plain("only-once") }, (_config, run) => run.mode === "once"),
      ],
    }));
    expect(kernel.plugins).toEqual([
      { id: "first", kind: "service", source: "builtin:first" },
      { id: "nested", kind: "service", source: "builtin:nested" },
    ]);
  });

  it("loads a built-in that when() excludes if a plugin block configures it, with its options", async () => {
    let seen: unknown;
    const metrics = definePlugin({
      id: "metrics",
      kind: "service",
      optionsSchema: { type: "object", additionalProperties: false, properties: { path: { type: "string", default: "/metrics" } } },
      deps: {},
      init(_deps, ctx) {
        seen = ctx.options;
      },
    });
    const kernel = await createKernel(options({
      config: testConfig({ plugins: [{ name: "metrics", source: "builtin:metrics", options: {} }] }),
      builtins: [builtin("metrics", { default: metrics }, () => false)],
    }));
    await kernel.init();
    expect(seen).toEqual({ path: "/metrics" });
    expect(Object.isFrozen(seen)).toBe(true);
    await kernel.stop();
  });

  it("refuses a block that configures an unknown built-in", async () => {
    const error = await failure({ config: testConfig({ plugins: [{ name: "x", source: "builtin:nope", options: {} }] }) });
    expect(error.code).toBe("CTS_ERR_PLUGIN_LOAD");
    expect(error.message).toContain(`no built-in plugin has the id "nope"`);
  });

  it("refuses a module without the plugin brand, naming the source", async () => {
    const path = await moduleFile("not-a-plugin.mjs", "export default { id: 'x', kind: 'driver', deps: {} };\n");
    const error = await failure({ config: testConfig({ plugins: [{ name: "fake", source: path, options: {} }] }) });
    expect(error.code).toBe("CTS_ERR_PLUGIN_INVALID");
    expect(error.message).toBe(
      `Cannot load plugin "fake" from "${path}": the module does not default-export a plugin definition (definePlugin from @cts-runtime/plugin-api)`,
    );
  });

  it("refuses a plugin built for another contract version", async () => {
    const path = await moduleFile(
      "v2.mjs",
      "export default { $$type: '@cts-runtime/plugin', apiVersion: 2, id: 'future', kind: 'driver', deps: {} };\n",
    );
    const error = await failure({ config: testConfig({ plugins: [{ name: "future", source: path, options: {} }] }) });
    expect(error.code).toBe("CTS_ERR_PLUGIN_INVALID");
    expect(error.message).toContain("targets plugin API version 2, this kernel runs version 1");
  });

  it("refuses an id that does not match the id pattern", async () => {
    const path = await moduleFile(
      "bad-id.mjs",
      "export default { $$type: '@cts-runtime/plugin', apiVersion: 1, id: 'Bad_Id', kind: 'driver', deps: {} };\n",
    );
    const error = await failure({ config: testConfig({ plugins: [{ name: "bad", source: path, options: {} }] }) });
    expect(error.code).toBe("CTS_ERR_PLUGIN_INVALID");
    expect(error.message).toContain(`its id "Bad_Id" does not match`);
  });

  it("refuses deps that are not tokens", async () => {
    const path = await moduleFile(
      "bad-deps.mjs",
      "export default { $$type: '@cts-runtime/plugin', apiVersion: 1, id: 'bad-deps', kind: 'driver', deps: { x: 'core.config' } };\n",
    );
    const error = await failure({ config: testConfig({ plugins: [{ name: "bad", source: path, options: {} }] }) });
    expect(error.message).toContain(`plugin "bad-deps" has deps that are not all tokens`);
  });

  it("refuses two plugins with one id, naming both sources", async () => {
    const path = await moduleFile(
      "dup.mjs",
      "export default { $$type: '@cts-runtime/plugin', apiVersion: 1, id: 'twin', kind: 'driver', deps: {} };\n",
    );
    const error = await failure({
      builtins: [builtin("twin", { default: plain("twin") })],
      config: testConfig({ plugins: [{ name: "twin-again", source: path, options: {} }] }),
    });
    expect(error.code).toBe("CTS_ERR_PLUGIN_INVALID");
    expect(error.message).toContain(`id "twin" is already used by "builtin:twin"`);
  });

  it("lets a package with the id of a replaceable built-in (its published form) replace it", async () => {
    const path = await moduleFile(
      "published.mjs",
      "export default { $$type: '@cts-runtime/plugin', apiVersion: 1, id: 'published', kind: 'condition', deps: {} };\n",
    );
    const kernel = await createKernel(options({
      builtins: [{ ...builtin("published", { default: plain("published") }), replaceable: true }],
      config: testConfig({ plugins: [{ name: "published", source: path, options: {} }] }),
    }));
    expect(kernel.plugins).toEqual([{ id: "published", kind: "condition", source: path }]);
  });

  it("reports a missing file and a failing import as CTS_ERR_PLUGIN_LOAD", async () => {
    const missing = await failure({ config: testConfig({ plugins: [{ name: "gone", source: join(dir, "gone.mjs"), options: {} }] }) });
    expect(missing.code).toBe("CTS_ERR_PLUGIN_LOAD");
    expect(missing.message).toContain("does not exist");
    const throwing = await moduleFile("throws.mjs", "throw new Error('top-level boom');\n");
    const error = await failure({ config: testConfig({ plugins: [{ name: "boom", source: throwing, options: {} }] }) });
    expect(error.code).toBe("CTS_ERR_PLUGIN_LOAD");
    expect(error.message).toBe(`Cannot load plugin "boom" from "${throwing}": top-level boom`);
    const unknownPackage = await failure({ config: testConfig({ plugins: [{ name: "pkg", source: "@nobody/no-such-plugin", options: {} }] }) });
    expect(unknownPackage.code).toBe("CTS_ERR_PLUGIN_LOAD");
    expect(unknownPackage.message).toContain(`"pkg" from "@nobody/no-such-plugin"`);
  });

  it("loads a package directory through its exports, preferring the runtime's condition", async () => {
    await moduleFile("pkg/package.json", JSON.stringify({
      name: "pkg",
      type: "module",
      exports: { ".": { types: "./types.d.ts", node: "./node.js", default: "./other.js" } },
    }));
    const body = (id: string) =>
      `export default { $$type: '@cts-runtime/plugin', apiVersion: 1, id: '${id}', kind: 'service', deps: {} };\n`;
    await moduleFile("pkg/node.js", body("from-node-condition"));
    await moduleFile("pkg/other.js", body("from-default"));
    const kernel = await createKernel(options({ config: testConfig({ plugins: [{ name: "pkg", source: join(dir, "pkg"), options: {} }] }) }));
    expect(kernel.plugins.map((p) => p.id)).toEqual(["from-node-condition"]);
  });

  it("validates the options of all plugins and reports every problem at once", async () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      required: ["url"],
      properties: { url: { type: "string", format: "uri" }, retries: { type: "integer", minimum: 0 } },
    };
    const error = await failure({
      builtins: [
        builtin("one", { default: plain("one", { optionsSchema: schema }) }),
        builtin("two", { default: plain("two", { optionsSchema: schema }) }),
        builtin("three", { default: plain("three") }),
      ],
      config: testConfig({
        plugins: [
          { name: "one", source: "builtin:one", options: { retries: -1, colour: "red" } },
          { name: "two", source: "builtin:two", options: { url: "not a uri" } },
          { name: "three", source: "builtin:three", options: { any: 1 } },
        ],
      }),
    });
    expect(error.code).toBe("CTS_ERR_PLUGIN_OPTIONS");
    expect(error.message.split("\n").slice(1)).toEqual([
      `  plugin "one": options must have the key "url"`,
      `  plugin "one": options must not have the key "colour"`,
      `  plugin "one": options/retries must be >= 0`,
      `  plugin "two": options/url must match format "uri"`,
      `  plugin "three": takes no options, got "any"`,
    ]);
  });

  it("reports an options schema that strict ajv rejects", async () => {
    const error = await failure({
      builtins: [builtin("sloppy", { default: plain("sloppy", { optionsSchema: { type: "object", colour: "red" } }) })],
    });
    expect(error.code).toBe("CTS_ERR_PLUGIN_OPTIONS");
    expect(error.message).toContain(`plugin "sloppy": its optionsSchema is not a valid strict JSON Schema`);
  });
});
