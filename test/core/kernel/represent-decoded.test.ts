/**
 * The API's representation of a condition or module_input block reads it as every other hook does:
 * the kernel's factory decodes the stored block (a record another version wrote may lack defaults or
 * use a renamed field) before the owner's `api.represent` sees it. A stored block the owner now
 * refuses is shown as stored, without its label, since no typed reader can read it.
 */
import { describe, expect, it } from "vitest";
import { BlockOptions } from "../../../core/kernel/block-options.ts";
import { createPluginAjv } from "../../../core/kernel/plugin-ajv.ts";
import { withValidatedInput } from "../../../core/kernel/validated-factories.ts";
import type { ConditionFactory, InputSource, JsonSchema, OptionsOf } from "../../../core/plugin-api/mod.ts";

const schema = {
  type: "object",
  additionalProperties: false,
  required: ["key"],
  properties: { key: { type: "string" }, inverted: { type: "boolean", default: false } },
} as const satisfies JsonSchema;
type Toggle = OptionsOf<typeof schema>;

function toggle(seen: unknown[]): ConditionFactory<Toggle> {
  return {
    name: "toggle",
    optionsSchema: schema,
    renamedFields: { negate: "inverted" },
    api: { represent: (block) => (seen.push(block), { key: block.key, inverted: block.inverted }) },
    create: () => ({ start: async () => {}, stop: () => {} }) as InputSource,
  };
}

describe("api.represent through the kernel's factory", () => {
  const blocks = new BlockOptions(createPluginAjv());

  it("reads the stored block decoded: defaults applied, renamed fields moved, frozen", () => {
    const seen: unknown[] = [];
    const api = withValidatedInput(toggle(seen) as ConditionFactory, "condition", blocks).api!;
    expect(api.represent!({ type: "toggle", key: "a" })).toEqual({ key: "a", inverted: false });
    expect(api.represent!({ type: "toggle", key: "b", negate: true })).toEqual({ key: "b", inverted: true });
    expect(seen).toEqual([{ type: "toggle", key: "a", inverted: false }, { type: "toggle", key: "b", inverted: true }]);
    expect(seen.every((block) => Object.isFrozen(block))).toBe(true);
  });

  it("shows a stored block its owner refuses as stored, without the label, and never hands it to the owner", () => {
    const seen: unknown[] = [];
    const api = withValidatedInput(toggle(seen) as ConditionFactory, "condition", blocks).api!;
    expect(api.represent!({ type: "toggle", kee: "typo" })).toEqual({ kee: "typo" });
    expect(seen).toEqual([]);
  });
});
