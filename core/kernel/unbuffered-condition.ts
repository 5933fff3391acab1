/**
 * @module Tasks whose condition never buffers (`ConditionFactory.unbuffered`; CTS: schedule). CTS
 * ignores their buffer period: the task shows it disabled (always, as if configured), and a task
 * block that enables one gets a warning. The condition's owner says so, not its type name, so the
 * rule holds for a third-party condition too; the kernel applies it when it completes a task.
 */
import type { ConfigIssue } from "../config/config-error.ts";
import { DISABLED_BUFFER_PERIOD } from "../config/buffer-period.ts";
import type { ConditionFactory, CtsConfig, Registry, TaskConfig } from "../plugin-api/mod.ts";

/** The task's buffer fields under an unbuffered condition; none to change otherwise. */
export function unbufferedFields(
  owner: ConditionFactory | undefined,
): Pick<TaskConfig, "buffer_period" | "buffer_period_configured"> | undefined {
  return owner?.unbuffered === true ? { buffer_period: DISABLED_BUFFER_PERIOD, buffer_period_configured: true } : undefined;
}

/** One warning per task block that enables a buffer period its condition ignores. */
export function unbufferedWarnings(
  config: CtsConfig, fileOf: (path: string) => string | undefined, conditions: Registry<ConditionFactory>,
): ConfigIssue[] {
  const warnings: ConfigIssue[] = [];
  config.tasks.forEach((task, index) => {
    if (unbufferedFields(conditions.get(task.condition.type)) === undefined) return;
    if (!task.buffer_period_configured || !task.buffer_period.enabled) return;
    const path = `task[${index}].buffer_period`;
    warnings.push({ file: fileOf(path) ?? fileOf(`task[${index}]`) ?? "", path, message: "ignored: scheduled tasks never buffer" });
  });
  return warnings;
}
