/**
 * The run history's input diff (input-change.ts), pure: instances added, removed and changed with
 * the changed field names; KV keys and catalog services added, removed and changed; never a value.
 */
import { describe, expect, it } from "vitest";
import type { ServiceInstance, TaskInputs } from "../../../core/plugin-api/mod.ts";
import { diffInputs, digestInputs, MAX_LISTED } from "../../../plugins/task-engine/src/input-change.ts";

function instance(id: string, overrides: Partial<ServiceInstance> = {}): ServiceInstance {
  return {
    id, name: "web", kind: "", address: "10.0.0.1", port: 80, meta: {}, tags: ["a"], namespace: "", status: "passing",
    node: "n1", node_id: "nid", node_address: "10.1.0.1", node_datacenter: "dc1", node_tagged_addresses: {}, node_meta: {},
    cts_user_defined_meta: {}, ...overrides,
  };
}

function inputs(services: ServiceInstance[], extra: Omit<TaskInputs, "services"> = {}): TaskInputs {
  return { services: Object.fromEntries(services.map((s) => [`${s.id}.n1.dc1`, s])), ...extra };
}

describe("diffInputs", () => {
  it("marks the first run and lists everything as added", () => {
    const change = diffInputs(undefined, digestInputs(inputs([instance("web-1")], { consul_kv: { "app/x": "1" } })));
    expect(change).toEqual({
      first: true,
      services: { added: ["web-1.n1.dc1"], removed: [], changed: [] },
      consul_kv: { added: ["app/x"], removed: [], changed: [] },
    });
  });

  it("lists instances added, removed and changed with exactly the fields that changed", () => {
    const before = digestInputs(inputs([instance("web-1"), instance("web-2"), instance("web-3")]));
    const after = digestInputs(inputs([
      instance("web-1", { address: "10.0.0.9", meta: { v: "2" } }),
      instance("web-3"),
      instance("web-4"),
    ]));
    expect(diffInputs(before, after)).toEqual({
      services: {
        added: ["web-4.n1.dc1"],
        removed: ["web-2.n1.dc1"],
        changed: [{ id: "web-1.n1.dc1", fields: ["address", "meta"] }],
      },
    });
  });

  it("reports nothing for equal inputs, whatever the key order of maps", () => {
    const a = digestInputs(inputs([instance("web-1", { meta: { a: "1", b: "2" } })], { consul_kv: { k: "v" } }));
    const b = digestInputs(inputs([instance("web-1", { meta: { b: "2", a: "1" } })], { consul_kv: { k: "v" } }));
    expect(diffInputs(a, b)).toEqual({
      services: { added: [], removed: [], changed: [] },
      consul_kv: { added: [], removed: [], changed: [] },
    });
  });

  it("lists KV keys and catalog services by name, never their values", () => {
    const before = digestInputs(inputs([], {
      consul_kv: { "app/a": "secret-1", "app/b": "x" }, catalog_services: { web: ["a"], db: [] },
    }));
    const after = digestInputs(inputs([], {
      consul_kv: { "app/a": "secret-2", "app/c": "y" }, catalog_services: { web: ["a", "b"], api: [] },
    }));
    const change = diffInputs(before, after);
    expect(change.consul_kv).toEqual({ added: ["app/c"], removed: ["app/b"], changed: ["app/a"] });
    expect(change.catalog_services).toEqual({ added: ["api"], removed: ["db"], changed: ["web"] });
    expect(JSON.stringify(change)).not.toContain("secret");
  });

  it("caps each list and counts what it left out, so a record stays small", () => {
    const many = Array.from({ length: MAX_LISTED + 25 }, (_, n) => instance(`web-${String(n).padStart(4, "0")}`));
    const change = diffInputs(digestInputs(inputs([])), digestInputs(inputs(many)));
    expect(change.services!.added).toHaveLength(MAX_LISTED);
    expect(change.omitted).toBe(25);
  });
});
