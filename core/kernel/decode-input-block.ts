/**
 * @module A condition or module_input block decoded as the kernel decodes it for its owner (renamed
 * fields moved, weakly decoded, checked against the owner's schema with the kernel's ajv, defaults
 * applied, frozen, then the owner's `validate` rules), for code that hands a block to a factory
 * without a kernel: the plugin testkit's conformance suites and plugins' own tests. So a factory
 * only ever sees checked options, whoever calls it.
 */
import { CtsError, type InputBlockFactory } from "../plugin-api/mod.ts";
import { formatIssue, type ConfigIssue } from "../config/config-error.ts";
import { BlockOptions } from "./block-options.ts";
import { createPluginAjv } from "./plugin-ajv.ts";
import { checkBlock } from "./task-blocks.ts";

type Fields = Readonly<Record<string, unknown>>;

// One ajv for every call: a schema is compiled once however many blocks are decoded.
let shared: BlockOptions | undefined;

/**
 * `block` is the block as a config file writes it (its `type` label optional); `kind` is the block
 * keyword. Throws `Cannot configure <kind> "<name>": <field>: <problem>` (CTS_ERR_CONFIG_INVALID)
 * with every problem, as the kernel reports them.
 */
export function decodeInputBlock<O extends object>(
  factory: InputBlockFactory<O>, kind: "condition" | "module_input", block: Fields,
): O {
  shared ??= new BlockOptions(createPluginAjv());
  const issues: ConfigIssue[] = [];
  const owner = factory as unknown as InputBlockFactory;
  const decoded = checkBlock(owner, block, "", `${kind}.${factory.name}`, shared, issues);
  if (decoded === undefined) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot configure ${kind} "${factory.name}": ${issues.map(formatIssue).join("; ")}`);
  }
  return decoded as O;
}
