/**
 * @module The variable a task's block renders, before any source runs: its owner says so from the
 * block's options (`publishesFor`); an owner that does not (a plugin written before the hook) is
 * asked through a source created only to read its `variable` (creating a source starts nothing).
 */
import type { InputBlockFactory, InputVariable, TaskConfig } from "../../../core/plugin-api/mod.ts";

type Block = Readonly<Record<string, unknown>>;

/** Throws what the owner throws for a block it rejects. */
export function renderedVariable(owner: InputBlockFactory, block: Block, task: TaskConfig): InputVariable | undefined {
  return owner.publishesFor ? owner.publishesFor(block) : owner.create(block, task.name, task).variable;
}
