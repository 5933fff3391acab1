/**
 * @module A driver plugin (`driver "capture"`) that keeps the DriverContext each task's driver was
 * created with, so a test can read what the engine told the driver (inputs, templates). It applies
 * nothing.
 */
import {
  definePlugin, driverRegistryToken, type Driver, type DriverContext, type TaskConfig,
} from "../../../core/plugin-api/mod.ts";

/** The plugin, writing each created driver's context into `contexts` under its task's name. */
export function capturingDriverPlugin(contexts: Map<string, DriverContext>) {
  return definePlugin({
    id: "driver-capture",
    kind: "driver",
    deps: { drivers: driverRegistryToken },
    init({ drivers }) {
      drivers.register({
        name: "capture",
        create(task: TaskConfig, ctx: DriverContext): Promise<Driver> {
          contexts.set(task.name, ctx);
          const done = () => Promise.resolve();
          return Promise.resolve({
            init: done, render: done, apply: done, destroy: done,
            plan: () => Promise.resolve({ changesPresent: false, plan: "" }),
            version: () => Promise.resolve("capture 1"),
          });
        },
      });
    },
  });
}
