// @ts-check
/**
 * @module An example third-party driver for cts-runtime, in plain JavaScript.
 *
 * It depends on nothing but the published contract, reaches files only through the kernel's
 * file system service, and has no top-level side effects: importing it does nothing at all.
 * The driver `echo` writes each task's rendered inputs as JSON to `<working dir>/inputs.json`
 * and keeps a journal of the calls it received, which is handy in tests.
 */
import { CtsError, definePlugin, driverRegistryToken, fileSystemToken, loggerToken } from "@cts-runtime/plugin-api";

/** @typedef {import("@cts-runtime/plugin-api").Driver} Driver */
/** @typedef {import("@cts-runtime/plugin-api").DriverFactory} DriverFactory */
/** @typedef {import("@cts-runtime/plugin-api").FileSystem} FileSystem */
/** @typedef {import("@cts-runtime/plugin-api").JsonSchema} JsonSchema */
/** @typedef {import("@cts-runtime/plugin-api").Logger} Logger */
/** @typedef {import("@cts-runtime/plugin-api").TaskInputs} TaskInputs */

/**
 * One recorded call: which task, which step. `render` and `apply` carry the inputs they used.
 * @typedef {{ task: string, method: "init" | "render" | "plan" | "apply" | "destroy" | "dispose", inputs?: TaskInputs }} EchoCall
 */

/** @typedef {DriverFactory & { readonly calls: EchoCall[] }} EchoDriverFactory */

/**
 * The plugin's options schema (strict: unknown keys are rejected), their one description: written
 * `const`, so `OptionsOf` infers their type from it (the kernel fills in the defaults before `init`).
 * - `driverName`: the `driver "<name>"` label this driver answers to.
 * - `pretty`: indent the JSON it writes.
 * - `fileName`: the file written in the task's working directory.
 */
export const optionsSchema = /** @type {const} @satisfies {JsonSchema} */ ({
  type: "object",
  additionalProperties: false,
  properties: {
    driverName: { type: "string", pattern: "^[a-z][a-z0-9-]*$", default: "echo" },
    pretty: { type: "boolean", default: true },
    fileName: { type: "string", pattern: "^[^/\\\\]+$", default: "inputs.json" },
  },
});

/** @typedef {import("@cts-runtime/plugin-api").OptionsOf<typeof optionsSchema>} EchoOptions */

/**
 * Creates the `echo` driver factory; usable without the kernel (e.g. in a conformance suite).
 * @param {FileSystem} fs
 * @param {EchoOptions} options
 * @returns {EchoDriverFactory}
 */
export function createEchoDriverFactory(fs, options) {
  /** @type {EchoCall[]} */
  const calls = [];
  return {
    name: options.driverName,
    calls,
    async create(task, ctx) {
      const path = fs.resolve(ctx.workingDir, options.fileName);
      /** @type {string | undefined} */
      let rendered;
      /** What the last apply wrote (possibly by an earlier instance), as the driver's "state". */
      const applied = async () => ((await fs.exists(path)) ? (await fs.readText(path)).replace(/\n$/, "") : undefined);
      /** @type {(method: EchoCall["method"], inputs?: TaskInputs) => void} */
      const record = (method, inputs) => {
        calls.push(inputs === undefined ? { task: task.name, method } : { task: task.name, method, inputs });
        ctx.logger.debug(`echo ${method}`, { task_name: task.name });
      };
      /** @type {Driver} */
      const driver = {
        async init(signal) {
          signal.throwIfAborted();
          record("init");
          await fs.mkdir(ctx.workingDir);
        },
        async render(inputs, signal) {
          signal.throwIfAborted();
          record("render", inputs);
          rendered = JSON.stringify(inputs, null, options.pretty ? 2 : undefined);
        },
        async plan(signal) {
          signal.throwIfAborted();
          record("plan");
          const changesPresent = rendered !== (await applied());
          return { changesPresent, plan: changesPresent ? `echo: would write ${path}` : "echo: no changes" };
        },
        async apply(signal) {
          signal.throwIfAborted();
          if (rendered === undefined) {
            throw new CtsError("CTS_ERR_DRIVER", `Cannot apply task "${task.name}": nothing was rendered yet`);
          }
          record("apply", JSON.parse(rendered));
          await fs.writeText(path, `${rendered}\n`);
        },
        async destroy(signal) {
          signal.throwIfAborted();
          record("destroy");
          await fs.remove(path);
        },
        async version() {
          return "echo 0.1.0";
        },
        async dispose() {
          record("dispose");
        },
      };
      return driver;
    },
  };
}

/** The plugin definition; also the default export, which is what the kernel loads. */
export const driverEchoPlugin = definePlugin({
  id: "driver-echo",
  kind: "driver",
  description: "Writes each task's rendered inputs to a JSON file (example third-party driver)",
  optionsSchema,
  deps: { drivers: driverRegistryToken, fs: fileSystemToken, logger: loggerToken },
  /** @param {import("@cts-runtime/plugin-api").PluginContext<EchoOptions>} ctx */
  init(deps, ctx) {
    const { drivers, fs, logger } = deps;
    drivers.register(createEchoDriverFactory(fs, ctx.options));
    logger.info("registered driver", { driver: ctx.options.driverName });
  },
});

export default driverEchoPlugin;
