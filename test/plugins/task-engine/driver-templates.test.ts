/**
 * The engine hands a driver each block's terraform.tfvars.tmpl text as the block's owner writes it
 * (`ConditionFactory.template` → `DriverContext.templates`), so the Terraform driver reads no
 * block's fields and a third-party condition brings its own text (issue 12 item 1). CTS behaviour
 * pinned for the built-in blocks: the text CTS writes (templates/tftmpl in CTS), in block order,
 * condition first, a watch-only condition (`use_as_module_input = false`) included.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  conditionRegistryToken, definePlugin, type DriverContext, type InputSource,
  type TaskConfig,
} from "../../../core/plugin-api/mod.ts";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import driverTerraformPlugin from "../../../plugins/driver-terraform/mod.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";
import { engineConfig, startEngine, waitFor, type Harness } from "../../../harness/task-engine/engine-harness.ts";
import { capturingDriverPlugin } from "./capturing-driver.ts";

let server: Awaited<ReturnType<typeof startConsulDevServer>>;
let harness: Harness | undefined;
const contexts = new Map<string, DriverContext>();
const tmp = tempDir("driver-templates");
const savedEnv = { ...process.env };

beforeAll(async () => {
  server = await startConsulDevServer();
  // terraform runs offline, without a shared plugin cache (the process runner passes this env on).
  for (const [key, value] of Object.entries(terraformTestEnv())) process.env[key] = value;
  for (const key of ["TF_DATA_DIR", "TF_PLUGIN_CACHE_DIR", "TF_WORKSPACE", "TF_LOG"]) delete process.env[key];
});
afterAll(async () => {
  await server?.stop();
  process.env = savedEnv;
  tmp.remove();
});
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

/** Its own query language, its own variable: only the condition knows how its template reads. */
const watchText = (options: Readonly<Record<string, unknown>>): string =>
  `\nkv_watch = {\n{{- with $w := kvWatch "${String(options.prefix)}" }}\n  "{{ .Key }}" = "{{ .Value }}"\n{{- end}}\n}\n`;

const kvWatchPlugin = definePlugin({
  id: "condition-kv-watch",
  kind: "condition",
  deps: { conditions: conditionRegistryToken },
  init({ conditions }) {
    conditions.register({
      name: "kv-watch",
      publishes: "kv_watch",
      optionsSchema: { type: "object", additionalProperties: false, properties: { prefix: { type: "string", default: "app/" } } },
      template: watchText,
      create: (): InputSource => ({
        variable: "kv_watch",
        start: (ctx) => Promise.resolve(ctx.publish("kv_watch", { x: "1" })),
        stop: () => {},
      }),
    });
  },
});

const captureDriver = capturingDriverPlugin(contexts);

const SERVICES_WEB = `
services = {
{{- with $srv := service "web" "dc=dc1" }}
  {{- range $s := $srv}}
  "{{ joinStrings "." .ID .Node .Namespace .NodeDatacenter }}" = {
{{ HCLService $s | indent 4 }}
  },
  {{- end}}
{{- end}}
}
`;

it("hands the driver each block's template from its owner, a third-party condition's included", async () => {
  const tasks = [
    testTask("third-party", {
      driver: "capture", condition: { type: "kv-watch", prefix: "app/" },
      module_input: [{ type: "services", names: ["web"], datacenter: "dc1" }] as never,
    }),
    // CTS: a condition with use_as_module_input = false still writes its (watch-only) template.
    testTask("watch-only", {
      driver: "capture",
      condition: { type: "consul-kv", path: "color", recurse: false, use_as_module_input: false },
    }),
  ];
  harness = await startEngine({
    config: engineConfig(server.address, tasks),
    replace: { "condition-kv-watch": kvWatchPlugin, "driver-capture": captureDriver },
  });
  await waitFor(() => contexts.size === 2, "both drivers created");
  // Whoever asks the registered factory, its template gets the block checked and defaulted, as `create` does.
  const registered = harness.kernel.resolve(conditionRegistryToken).get("kv-watch")!;
  expect(registered.template!({ type: "kv-watch" })).toBe(watchText({ prefix: "app/" }));
  expect(contexts.get("third-party")!.templates).toEqual([
    { block: "condition", type: "kv-watch", variable: "kv_watch", text: watchText({ prefix: "app/" }) },
    { block: "module_input", type: "services", variable: "services", text: SERVICES_WEB },
  ]);
  expect(contexts.get("watch-only")!.templates).toEqual([{
    block: "condition", type: "consul-kv",
    text: `\n{{- with $kv := keyExistsGet "color" }}\n  {{- /* Empty template. Detects changes in Consul KV */ -}}\n{{- end}}\n`,
  }]);
});

it("the Terraform driver writes a third-party condition's text to terraform.tfvars.tmpl", async () => {
  const workingDir = join(tmp.path, "work");
  const task = testTask("custom", {
    // A disabled task is initialised at start-up (CTS writes its files) but never runs.
    enabled: false,
    condition: { type: "kv-watch", prefix: "app/" },
    module: join(import.meta.dirname, "..", "driver-terraform", "modules", "stub"),
    working_dir: workingDir,
  });
  harness = await startEngine({
    config: engineConfig(server.address, [task], {
      driver: { name: "terraform", options: { backend: { local: { path: join(tmp.path, "state.tfstate") } } } },
    }),
    replace: { "condition-kv-watch": kvWatchPlugin, "driver-terraform": driverTerraformPlugin },
  });
  const path = join(workingDir, "terraform.tfvars.tmpl");
  await waitFor(() => existsSync(path), "terraform.tfvars.tmpl written", 60_000);
  const text = readFileSync(path, "utf8");
  // The condition's text first, then CTS's empty services (nothing renders services).
  expect(text.slice(text.indexOf("# Description:")).replace(/^[^\n]*\n/, "")).toBe(`${watchText({ prefix: "app/" })}\nservices = {\n}\n`);
}, 90_000);
