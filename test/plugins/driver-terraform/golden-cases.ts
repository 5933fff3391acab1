/** @module The golden-file variants: each is a root module plus terraform.tfvars inputs. */
import type { TaskInputs } from "../../../core/plugin-api/mod.ts";
import type { RootModuleSource } from "../../../plugins/driver-terraform/src/build-root-module.ts";
import { normalizeTerraformOptions } from "../../../plugins/driver-terraform/src/options.ts";
import { consulConfig, inputsFor, instance, provider, taskConfig } from "../../../harness/driver-terraform/fixtures.ts";

export interface GoldenCase {
  /** `inputs` (what the engine passes as DriverContext.inputs) is derived from the task by golden.test.ts. */
  readonly source: Omit<RootModuleSource, "inputs">;
  readonly inputs: TaskInputs;
}

const resolvePath = (path: string) => `/srv/cts/${path.replace(/^\.\//, "")}`;
const noOptions = normalizeTerraformOptions({});

const web = instance("web", "node-a", {
  meta: { version: "1.2" }, tags: ["blue", "prod"], node_tagged_addresses: { lan: "10.0.0.1", wan: "1.2.3.4" },
  node_meta: { rack: "r1" }, cts_user_defined_meta: { owner: "team-a" },
});
const api = instance("api", "node-b", { address: "10.0.0.2", port: 8080, status: "warning" });

export const goldenCases: Record<string, GoldenCase> = {
  "no-providers": {
    source: { task: taskConfig(), providers: [], options: noOptions, consul: consulConfig(), resolvePath },
    inputs: inputsFor([]),
  },
  "providers": {
    source: {
      task: taskConfig({ providers: ["local", "aws.east", "unknownprov"] }),
      providers: [
        provider("local", { arguments: {} }),
        provider("aws.east", {
          arguments: { region: "us-east-1", max_retries: 3, skip_checks: true, allowed_ids: ["1", "2"],
            assume_role: { role_arn: "arn:aws:iam::1:role/x", session_name: "cts" } },
          task_env: { AWS_ACCESS_KEY_ID: "secret-not-rendered" },
          auto_commit: false,
        }),
      ],
      options: normalizeTerraformOptions({
        required_providers: { aws: { source: "hashicorp/aws", version: "~> 5.0" }, local: "2.0.0", unused: "1.0" },
      }),
      consul: consulConfig(), resolvePath,
    },
    inputs: inputsFor([web]),
  },
  "variables": {
    source: {
      task: taskConfig({
        variables: {
          a_string: `"hello \\"world\\" $\${x}"`,
          replicas: "3",
          ratio: "0.5",
          enabled: "true",
          list: `["a", 1, true]`,
          tags: `{ env = "prod", "my-key" = ["x"], nested = { deep = 1 } }`,
          empty: "{}",
        },
      }),
      providers: [], options: noOptions, consul: consulConfig(), resolvePath,
    },
    inputs: inputsFor([web, api]),
  },
  "catalog-services": {
    source: {
      task: taskConfig({
        condition: { type: "catalog-services", regexp: "^web", datacenter: "", namespace: "", node_meta: {},
          use_as_module_input: true },
      }),
      providers: [], options: noOptions, consul: consulConfig(), resolvePath,
    },
    inputs: inputsFor([], { catalog_services: { consul: [], web: ["blue", "prod"], "web-admin": ["v1"] } }),
  },
  "consul-kv": {
    source: {
      task: taskConfig({
        module_input: [{ type: "consul-kv", path: "app/config", recurse: true, datacenter: "", namespace: "" }],
      }),
      providers: [], options: noOptions, consul: consulConfig(), resolvePath,
    },
    inputs: inputsFor([api], {
      consul_kv: { "app/config/a": "1", "app/config/b": "line1\nline2 \"q\" ${not_interp} %{x} \\ \t", "app/config/c": "" },
    }),
  },
  "description-version": {
    source: {
      task: taskConfig({
        name: "firewall_sync",
        description: "Keeps the firewall in step with Consul.\nSecond line.",
        module: "example-org/firewall/panos",
        version: "1.2.3",
      }),
      providers: [], options: noOptions, consul: consulConfig(), resolvePath,
    },
    inputs: inputsFor([web]),
  },
  "backend-consul-tls": {
    source: {
      task: taskConfig(),
      providers: [],
      options: normalizeTerraformOptions({ backend: { consul: { path: "custom/state", lock: false } } }),
      consul: consulConfig({
        address: "consul.example:8501", token: "never-rendered", kv_path: "team/cts",
        tls: { enabled: true, verify: true, ca_cert: "/etc/ca.pem", ca_path: "", cert: "/etc/c.pem", key: "/etc/k.pem", server_name: "" },
      }),
      resolvePath,
    },
    inputs: inputsFor([]),
  },
  "backend-local": {
    source: {
      task: taskConfig(),
      providers: [],
      options: normalizeTerraformOptions({ backend: { local: { path: "/var/lib/cts/state.tfstate" } } }),
      consul: consulConfig(), resolvePath,
    },
    inputs: inputsFor([]),
  },
  "backend-kv-path-terraform": {
    source: {
      task: taskConfig(), providers: [], options: noOptions,
      consul: consulConfig({ kv_path: "prod/terraform/" }), resolvePath,
    },
    inputs: inputsFor([]),
  },
};
