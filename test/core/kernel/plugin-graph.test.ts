import { describe, expect, it } from "vitest";
import { configToken, createToken, loggerToken, type Token } from "../../../core/plugin-api/mod.ts";
import { buildPluginGraph, type GraphPlugin } from "../../../core/kernel/plugin-graph.ts";

const t = (id: string): Token<unknown> => createToken(id);
const node = (id: string, needs: string[] = [], provides: string[] = []): GraphPlugin => ({
  id,
  needs: needs.map(t),
  provides: provides.map(t),
});
const core = [configToken, loggerToken];

function graphError(plugins: GraphPlugin[]): Error & { code?: string } {
  try {
    buildPluginGraph(plugins, core);
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected the graph to be rejected");
}

describe("plugin graph", () => {
  it("orders providers before consumers and keeps declaration order between independent plugins", () => {
    const graph = buildPluginGraph([
      node("api", ["x.tasks", "core.config"]),
      node("engine", ["x.store", "x.client"], ["x.tasks"]),
      node("zeta"),
      node("store", ["x.client"], ["x.store"]),
      node("client", ["core.logger"], ["x.client"]),
      node("alpha"),
    ], core);
    expect(graph.order).toEqual(["zeta", "client", "store", "engine", "api", "alpha"]);
    expect(graph.providerOf.get("x.store")).toBe("store");
    expect(graph.providerOf.get("core.config")).toBe("kernel");
  });

  it("lets a plugin depend on a token it provides itself", () => {
    expect(buildPluginGraph([node("self", ["x.own"], ["x.own"])], core).order).toEqual(["self"]);
  });

  it("names every missing token and every plugin that needs it", () => {
    const error = graphError([node("a", ["consul.client", "x.clock"]), node("b", ["consul.client"])]);
    expect(error.code).toBe("CTS_ERR_PLUGIN_DEPENDENCY");
    expect(error.message).toContain(`missing: no plugin provides "consul.client", needed by "a", "b"`);
    expect(error.message).toContain(`missing: no plugin provides "x.clock", needed by "a"`);
  });

  it("reports a cycle with its path", () => {
    const error = graphError([
      node("free"),
      node("b", ["x.a"], ["x.b"]),
      node("a", ["x.c"], ["x.a"]),
      node("c", ["x.b"], ["x.c"]),
    ]);
    expect(error.code).toBe("CTS_ERR_PLUGIN_DEPENDENCY");
    expect(error.message).toContain(`circular: 'b' -> 'a' -> 'c' -> 'b'`);
    expect(error.message.match(/circular/g)).toHaveLength(1);
  });

  it("reports missing providers and cycles together, before anything runs", () => {
    const error = graphError([node("a", ["x.b", "x.gone"], ["x.a"]), node("b", ["x.a"], ["x.b"])]);
    expect(error.message).toContain(`"x.gone"`);
    expect(error.message).toContain(`circular: 'a' -> 'b' -> 'a'`);
  });

  it("refuses two providers of one token, naming both", () => {
    const error = graphError([node("store-memory", [], ["store.tasks"]), node("ha-consul", [], ["store.tasks"])]);
    expect(error.message).toContain(`duplicate: "store.tasks" is provided by both "store-memory" and "ha-consul"`);
  });

  it("refuses a plugin that provides a core token", () => {
    const error = graphError([node("rogue", [], ["core.config"])]);
    expect(error.message).toContain(`duplicate: "core.config" is provided by both the kernel and "rogue"`);
  });
});
