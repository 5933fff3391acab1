/**
 * CTS's deprecated task field `services = [...]` (CTS: a services condition on the listed services,
 * or a services module input next to another condition; top-level `service` blocks name services by
 * id and give their datacenter, namespace, filter and cts_user_defined_meta). The loader writes only
 * the label; the kernel asks the label's registered owner for the body (`fromDeprecatedServices`),
 * so the body's fields are spelled by the plugin, not by core.
 */
import { afterAll, describe, expect, test } from "vitest";
import { createKernel } from "../../../core/kernel/kernel.ts";
import { builtinPlugins } from "../../../core/kernel/builtin-plugins.ts";
import {
  conditionRegistryToken, configToken, definePlugin, moduleInputRegistryToken, type CtsConfig,
} from "../../../core/plugin-api/mod.ts";
import { loadFiles, removeConfigDirs } from "../config/config-dir.ts";
import { recordingLogSink } from "./kernel-fixtures.ts";

afterAll(removeConfigDirs);

const HCL = `
service {
  name       = "web"
  id         = "web-1"
  datacenter = "dc2"
  cts_user_defined_meta {
    vip = "v"
  }
}
task {
  name     = "only"
  module   = "./m"
  services = ["web-1", "db"]
}
task {
  name     = "next"
  module   = "./m"
  services = ["web-1"]
  condition "catalog-services" {
    regexp = "x"
  }
}
`;

/** A "services" owner of another plugin: its body, not core's, is what the task gets. */
const otherServices = definePlugin({
  id: "other-services",
  kind: "condition",
  deps: { conditions: conditionRegistryToken, moduleInputs: moduleInputRegistryToken },
  init({ conditions, moduleInputs }) {
    const fromDeprecatedServices = (ids: readonly string[], blocks: readonly Readonly<Record<string, unknown>>[], warn: (m: string) => void) => {
      warn(`saw ${blocks.length} service block(s)`);
      return { listed: ids.map((id) => id.toUpperCase()) };
    };
    const create = () => ({ start: async () => {}, stop: () => {} });
    conditions.register({ name: "services", fromDeprecatedServices, create });
    moduleInputs.register({ name: "services", fromDeprecatedServices, create });
  },
});

async function withKernel(
  plugins: "builtin" | "other", check: (config: CtsConfig, warnings: unknown[], issues: unknown[]) => void,
): Promise<void> {
  const loaded = await loadFiles({ "a.hcl": HCL });
  const kernel = await createKernel({
    config: loaded.config, runOptions: { mode: "validate", inspectTasks: [], resetStorage: false }, logSink: recordingLogSink(),
    ...(plugins === "other"
      ? { builtins: builtinPlugins.filter((plugin) => plugin.id !== "consul-inputs"), plugins: [otherServices] }
      : {}),
  });
  await kernel.init();
  try {
    check(kernel.resolve(configToken), kernel.blockWarnings(loaded.config, loaded.fileOf), kernel.blockIssues(loaded.config, loaded.fileOf));
  } finally {
    await kernel.stop();
  }
}

describe("the deprecated task field services is built by the owner of \"services\"", () => {
  test("built-in: the condition, or a module input next to another condition, with CTS's fields and the differing-values warning", async () => {
    await withKernel("builtin", (config, warnings, issues) => {
      expect(issues).toEqual([]);
      expect(config.tasks[0]!.condition).toEqual({
        type: "services", names: ["web", "db"], datacenter: "dc2", namespace: "", filter: "",
        cts_user_defined_meta: {}, cts_user_defined_meta_by_service: { web: { vip: "v" } }, use_as_module_input: true,
      });
      expect(config.tasks[1]!.module_input).toEqual([{
        type: "services", names: ["web"], datacenter: "dc2", namespace: "", filter: "",
        cts_user_defined_meta: {}, cts_user_defined_meta_by_service: { web: { vip: "v" } },
      }]);
      // "db" has no block, so the one selector cannot query it in dc2 as CTS did: the user is told.
      expect(warnings).toContainEqual({
        file: "a.hcl", path: "task[0].services",
        message: `the service blocks it names set different datacenter values; using "dc2" for all`,
      });
    });
  });

  test("another plugin's \"services\" owner gets the list and the service blocks as written", async () => {
    await withKernel("other", (config, warnings) => {
      expect(config.tasks[0]!.condition).toEqual({ type: "services", listed: ["WEB-1", "DB"] });
      expect(config.tasks[1]!.module_input).toEqual([{ type: "services", listed: ["WEB-1"] }]);
      expect(warnings).toEqual([
        { file: "a.hcl", path: "task[0].services", message: "saw 1 service block(s)" },
        { file: "a.hcl", path: "task[1].services", message: "saw 1 service block(s)" },
      ]);
    });
  });
});
