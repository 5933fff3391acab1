/**
 * `decodeInputBlock` (exported by cts-runtime and the plugin testkit) hands a factory the block the
 * kernel would hand it: the owner's renamed fields moved, weakly decoded, checked against its schema
 * with the kernel's ajv, defaults applied, frozen, then its `validate` rules; a block the kernel
 * refuses throws the kernel's words (field path included), so a factory never sees it.
 */
import { describe, expect, it } from "vitest";
import { decodeInputBlock } from "cts-runtime";
import { decodeInputBlock as fromTestkit } from "../../../core/plugin-testkit/mod.ts";
import type { ConditionFactory, InputSource, JsonSchema, OptionsOf } from "../../../core/plugin-api/mod.ts";
import { servicesConditionFactory, servicesModuleInputFactory } from "../../../plugins/consul-inputs/mod.ts";

const toggleSchema = {
  type: "object",
  additionalProperties: false,
  required: ["key"],
  properties: {
    key: { type: "string", minLength: 1 },
    inverted: { type: "boolean", default: false },
    zones: { type: "array", items: { type: "string" } },
    labels: { type: "object", additionalProperties: { type: "string" }, default: {} },
  },
} as const satisfies JsonSchema;
type Toggle = OptionsOf<typeof toggleSchema>;

const toggle: ConditionFactory<Toggle> = {
  name: "toggle",
  optionsSchema: toggleSchema,
  renamedFields: { negate: "inverted" },
  validate: (options) => options.key.startsWith("/") ? [{ path: "key", message: "must not start with /" }] : [],
  create: () => ({ start: async () => {}, stop: () => {} }) as InputSource,
};

describe("decodeInputBlock", () => {
  it("decodes as the kernel does: renamed fields moved, weak decoding, defaults, deeply frozen", () => {
    const decoded = decodeInputBlock(toggle, "condition", { type: "toggle", key: "k", negate: "true", zones: "z1" });
    expect(decoded).toEqual({ type: "toggle", key: "k", inverted: true, zones: ["z1"], labels: {} });
    expect(Object.isFrozen(decoded)).toBe(true);
    expect(Object.isFrozen(decoded.zones)).toBe(true);
    expect(fromTestkit).toBe(decodeInputBlock);
  });

  it("throws the kernel's words for a schema problem and for a validate rule, naming the field", () => {
    expect(() => decodeInputBlock(toggle, "module_input", { ky: "k" })).toThrow(
      expect.objectContaining({ code: "CTS_ERR_CONFIG_INVALID", message: expect.stringMatching(/^Cannot configure module_input "toggle": module_input\.toggle/) }),
    );
    expect(() => decodeInputBlock(toggle, "condition", { key: "/k" }))
      .toThrow('Cannot configure condition "toggle": condition.toggle.key: must not start with /');
  });

  it("checks a services selector's names xor regexp where the kernel does, in its validate hook", () => {
    expect(() => decodeInputBlock(servicesModuleInputFactory, "module_input", { names: ["a"], regexp: "^a" }))
      .toThrow('Cannot configure module_input "services": module_input.services.regexp: regexp and names are both set: configure exactly one of them');
    expect(() => decodeInputBlock(servicesConditionFactory, "condition", { filter: "x" }))
      .toThrow('Cannot configure condition "services": condition.services: needs either names or regexp');
    expect(decodeInputBlock(servicesConditionFactory, "condition", { names: ["web"] })).toEqual({
      names: ["web"], datacenter: "", namespace: "", filter: "", cts_user_defined_meta: {}, use_as_module_input: true,
    });
  });
});
