/** @module A driver that runs an action after each successful apply (CTS's post-apply handlers); the action's failure fails the run. */
import type { ApplyResult, Driver } from "../../../core/plugin-api/mod.ts";

export function afterApply(driver: Driver, action: (signal: AbortSignal) => Promise<void> | void): Driver {
  return {
    init: (signal) => driver.init(signal),
    render: (inputs, signal) => driver.render(inputs, signal),
    plan: (signal) => driver.plan(signal),
    async apply(signal): Promise<void | ApplyResult> {
      const result = await driver.apply(signal);
      await action(signal);
      return result;
    },
    destroy: (signal) => driver.destroy(signal),
    version: () => driver.version(),
    ...(driver.dispose ? { dispose: () => driver.dispose!() } : {}),
  };
}
