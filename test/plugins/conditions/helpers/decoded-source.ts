/**
 * @module A source made as the kernel makes one: the block as written, decoded by its owner the way
 * the kernel decodes it (schema, defaults, `validate`, frozen: the testkit's `decodeInputBlock`),
 * then handed to `create`. Factories read only decoded blocks, so tests hand them nothing else.
 */
import type { ConditionFactory, InputSource, ModuleInputFactory, TaskConfig } from "../../../../core/plugin-api/mod.ts";
import { decodeInputBlock } from "../../../../core/plugin-testkit/mod.ts";

type Block = Readonly<Record<string, unknown>>;

export function conditionSource(factory: ConditionFactory, block: Block, taskName: string, task?: TaskConfig): InputSource {
  return factory.create(decodeInputBlock(factory, "condition", block), taskName, task);
}

export function moduleInputSource(factory: ModuleInputFactory, block: Block, taskName: string, task?: TaskConfig): InputSource {
  return factory.create(decodeInputBlock(factory, "module_input", block), taskName, task);
}
