/**
 * The rule of issue 26, "every CTS setting does what it says": every field of the config schema
 * (schemas/config, and the blocks the built-in plugins own: driver bodies, driver task fields,
 * conditions, module inputs) is acted on, refused, or accepted with a notice naming it (WARN; the
 * licence's INFO). The table below classes each one; the test walks the schemas, so a field added
 * later without a class fails here, and each class is checked:
 * - acted: each `file:identifier` evidence names running code (not the loader that only copies
 *   fields into CtsConfig) that reads the field;
 * - refused: a config setting it is refused, naming the field;
 * - ignored: a config setting it loads with a notice naming it, and README.md lists it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configSchemas } from "../../../core/config/config-schemas.ts";
import { INEFFECTIVE_FIELDS } from "../../../core/config/ineffective-fields.ts";
import { createKernel } from "../../../core/kernel/kernel.ts";
import {
  conditionRegistryToken, driverRegistryToken, type JsonSchema, moduleInputRegistryToken, taskBlockRegistryToken,
} from "../../../core/plugin-api/mod.ts";
import { testConfig } from "../../../core/plugin-testkit/src/test-config.ts";
import { repoRoot } from "../../../harness/run-cli.ts";
import { recordingLogSink } from "../kernel/kernel-fixtures.ts";
import { loadFiles, ownerIssuesOf, removeConfigDirs } from "./config-dir.ts";

/** `file:identifier` pairs: where the running daemon reads the field (and how it names it there). */
type Effect = { readonly acted: readonly string[] } | { readonly refused: string } | { readonly ignored: string };

const acted = (...evidence: string[]): Effect => ({ acted: evidence });
const CLIENT_TRANSPORT = "core/plugin-api/src/client-transport.ts";
const TLS_FILES = "core/plugin-api/src/tls-files.ts";
const API_TLS = "core/http/api-tls-options.ts";
const BUILD_TASK = "core/config/build-task.ts";
const TASK_DRIVER = "plugins/task-engine/src/task-driver.ts";
const REGISTRATION = "plugins/service-registration/src/registration.ts";
const VAULT = "plugins/vault-client/src/vault-connection.ts";
const DEPRECATED_SERVICES = "plugins/consul-inputs/src/deprecated-services-body.ts";
const INPUT_OPTIONS = "plugins/consul-inputs/src/input-options.ts";
const SERVICES_MAP = "plugins/consul-inputs/src/services-map.ts";
const TFC_OPTIONS = "plugins/driver-terraform-cloud/src/options.ts";
const TFC_WORKSPACE = "plugins/driver-terraform-cloud/src/workspace.ts";
const KV_LAYOUT = "plugins/ha-consul/src/kv-layout.ts";

const transport = (block: "consul" | "vault"): Record<string, Effect> => Object.fromEntries(
  ["dial_keep_alive", "dial_timeout", "disable_keep_alives", "idle_conn_timeout", "max_idle_conns", "max_idle_conns_per_host", "tls_handshake_timeout"]
    .map((field) => [`${block}.transport.${field}`, acted(
      block === "consul" ? "plugins/consul-client/src/consul-client.ts:consul.transport" : `${VAULT}:config.transport`,
      `${CLIENT_TRANSPORT}:${field}`,
    )]),
);
const clientTls = (block: "consul" | "vault", user: string): Record<string, Effect> => ({
  [`${block}.tls.enabled`]: acted(`${user}:tls.enabled`, `${CLIENT_TRANSPORT}:tls.enabled`),
  [`${block}.tls.verify`]: acted(`${CLIENT_TRANSPORT}:tls.verify`),
  [`${block}.tls.ca_cert`]: acted(`${TLS_FILES}:ca_cert`),
  [`${block}.tls.ca_path`]: acted(`${TLS_FILES}:ca_path`),
  [`${block}.tls.cert`]: acted(`${TLS_FILES}:cert`),
  [`${block}.tls.key`]: acted(`${TLS_FILES}:key`),
  [`${block}.tls.server_name`]: acted(`${CLIENT_TRANSPORT}:server_name`),
});
const inputBody = (prefix: string, source: string): Record<string, Effect> => ({
  [`${prefix}.datacenter`]: acted(`${source}:datacenter`),
  [`${prefix}.namespace`]: acted(`${source}:namespace`),
});
const NODES_QUERY = "plugins/condition-nodes/src/nodes-query.ts";
const nodesBody = (prefix: string): Record<string, Effect> => ({
  [`${prefix}.datacenter`]: acted(`${NODES_QUERY}:datacenter`),
  [`${prefix}.filter`]: acted(`${NODES_QUERY}:filter`),
  [`${prefix}.node_meta`]: acted(`${NODES_QUERY}:node_meta`),
});

const EFFECTS: Readonly<Record<string, Effect>> = {
  "api.address": acted("core/cli/boot-daemon.ts:apiSettings(config).address"),
  "api.token": acted("core/kernel/lifecycle/serve-api.ts:api.token"),
  "api.allowed_origins": acted("core/kernel/lifecycle/serve-api.ts:api.allowed_origins"),
  "api.request_timeout": acted("core/kernel/lifecycle/serve-api.ts:api.request_timeout"),
  "api.max_event_streams": acted("plugins/http-api/mod.ts:max_event_streams"),
  "task.drift_detection.enabled": acted("plugins/task-engine/src/drift-settings.ts:own?.enabled"),
  "task.drift_detection.auto_correct": acted("plugins/task-engine/src/drift-settings.ts:own?.auto_correct"),
  "task.drift_detection.interval": acted("plugins/task-engine/src/drift-settings.ts:own?.interval"),
  "task.drift_detection.cron": acted("plugins/task-engine/src/drift-settings.ts:own?.cron"),
  log_level: acted("core/cli/daemon-log.ts:log_level"),
  log_json: acted("core/cli/daemon-log.ts:log_json"),
  port: acted("core/cli/boot-daemon.ts:config.port"),
  working_dir: acted(`${BUILD_TASK}:working_dir`, `${TASK_DRIVER}:working_dir`),
  id: acted(`${REGISTRATION}:config.id`, "plugins/ha-consul/mod.ts:config.id"),
  client_type: { ignored: "CTS takes it from -client-type only" },
  events_per_task: acted("plugins/task-engine/src/task-records.ts:events_per_task"),
  max_concurrent_runs: acted("plugins/task-engine/src/run-policy.ts:max_concurrent_runs"),
  "syslog.enabled": acted("core/cli/daemon-log.ts:syslog.enabled"),
  "syslog.facility": acted("core/cli/daemon-log.ts:syslog.facility", "core/runtime/syslog-writer.ts:facility"),
  "syslog.name": acted("core/cli/daemon-log.ts:syslog.name"),
  "buffer_period.enabled": acted(`${BUILD_TASK}:buffer_period`, "plugins/task-engine/src/task-watch.ts:buffer_period"),
  "buffer_period.min": acted(`${BUILD_TASK}:buffer_period`, "plugins/task-engine/src/task-watch.ts:buffer_period"),
  "buffer_period.max": acted(`${BUILD_TASK}:buffer_period`, "plugins/task-engine/src/task-watch.ts:buffer_period"),
  "tls.enabled": acted(`${API_TLS}:tls.enabled`),
  "tls.cert": acted(`${API_TLS}:tls.cert`),
  "tls.key": acted(`${API_TLS}:tls.key`),
  "tls.verify_incoming": acted(`${API_TLS}:verify_incoming`),
  "tls.ca_cert": acted(`${API_TLS}:ca_cert`),
  "tls.ca_path": acted(`${API_TLS}:ca_path`),
  "consul.address": acted("plugins/consul-client/src/consul-client.ts:consul.address"),
  "consul.token": acted("plugins/consul-client/src/credential-source.ts:c.token"),
  "consul.kv_path": acted("plugins/driver-terraform/src/backend.ts:kv_path"),
  "consul.kv_namespace": { ignored: "CTS reads it and never uses it" },
  "consul.auth.enabled": acted("plugins/consul-client/src/credential-source.ts:auth?.enabled", "plugins/consul-client/src/consul-transport.ts:auth.enabled"),
  "consul.auth.username": acted("plugins/consul-client/src/credential-source.ts:auth?.username"),
  "consul.auth.password": acted("plugins/consul-client/src/credential-source.ts:auth?.password"),
  ...clientTls("consul", "plugins/consul-client/src/consul-client.ts"),
  ...transport("consul"),
  "consul.service_registration.enabled": acted("plugins/service-registration/mod.ts:enabled"),
  "consul.service_registration.service_name": acted(`${REGISTRATION}:service_name`),
  "consul.service_registration.address": acted(`${REGISTRATION}:sr.address`),
  "consul.service_registration.namespace": acted(`${REGISTRATION}:sr.namespace`),
  "consul.service_registration.default_check.enabled": acted(`${REGISTRATION}:default_check.enabled`),
  "consul.service_registration.default_check.address": acted(`${REGISTRATION}:default_check.address`),
  "consul.service_registration.default_check.interval": acted(`${REGISTRATION}:interval`, "plugins/ha-consul/src/instance-session.ts:interval"),
  "consul.service_registration.default_check.timeout": acted(`${REGISTRATION}:timeout`),
  "vault.address": acted(`${VAULT}:config.address`),
  "vault.enabled": acted("plugins/vault-client/src/vault-secrets-service.ts:enabled"),
  "vault.namespace": acted(`${VAULT}:config.namespace`),
  "vault.token": acted(`${VAULT}:config.token`),
  "vault.vault_agent_token_file": acted(`${VAULT}:vault_agent_token_file`),
  "vault.renew_token": acted("plugins/vault-client/src/vault-secrets-service.ts:renew_token"),
  "vault.unwrap_token": acted(`${VAULT}:unwrap_token`),
  ...clientTls("vault", VAULT),
  ...transport("vault"),
  driver: acted(`${TASK_DRIVER}:driver`),
  "terraform_provider.<label>.alias": acted("plugins/driver-terraform/src/root-module-model.ts:alias"),
  "terraform_provider.<label>.task_env": acted("plugins/driver-terraform/src/terraform-driver.ts:task_env"),
  "terraform_provider.<label>.auto_commit": acted("plugins/driver-terraform/src/panos/panos-handler.ts:auto_commit"),
  "task.name": acted(`${TASK_DRIVER}:task.name`),
  "task.description": acted("plugins/driver-terraform/src/root-module-service.ts:task.description"),
  "task.enabled": acted("plugins/task-engine/src/task-runtime.ts:enabled"),
  "task.providers": acted(`${TASK_DRIVER}:providers`),
  "task.module": acted("plugins/driver-terraform/src/build-root-module.ts:module"),
  "task.source": acted(`${BUILD_TASK}:source`),
  "task.version": acted("plugins/driver-terraform/src/root-module-service.ts:task.version"),
  "task.variables": acted("plugins/driver-terraform/src/build-root-module.ts:variables"),
  "task.variable_files": acted("core/config/load-config.ts:variable_files"),
  "task.working_dir": acted(`${TASK_DRIVER}:working_dir`),
  "task.services": acted("core/kernel/services-field.ts:services"),
  "task.buffer_period.enabled": acted("plugins/task-engine/src/task-watch.ts:buffer_period"),
  "task.buffer_period.min": acted("plugins/task-engine/src/task-watch.ts:buffer_period"),
  "task.buffer_period.max": acted("plugins/task-engine/src/task-watch.ts:buffer_period"),
  "task.condition": acted("core/kernel/task-blocks.ts:condition"),
  "task.module_input": acted("core/kernel/task-blocks.ts:module_input"),
  "task.source_input": acted(`${BUILD_TASK}:source_input`),
  "service.name": acted(`${DEPRECATED_SERVICES}:name`),
  "service.id": acted(`${DEPRECATED_SERVICES}:block.id`),
  "service.description": { ignored: "CTS copies it and never uses it" },
  "service.datacenter": acted(`${DEPRECATED_SERVICES}:datacenter`),
  "service.namespace": acted(`${DEPRECATED_SERVICES}:namespace`),
  "service.filter": acted(`${DEPRECATED_SERVICES}:filter`),
  "service.cts_user_defined_meta": acted(`${DEPRECATED_SERVICES}:cts_user_defined_meta`),
  "plugin.<label>.source": acted("core/kernel/plugin-source.ts:source"),
  "plugin.<label>.options": acted("core/kernel/plugin-options.ts:options"),
  license_path: { ignored: "no licence is needed" },
  "license.path": { ignored: "no licence is needed" },
  "license.auto_retrieval.enabled": { ignored: "no licence is needed" },
  "high_availability.cluster.name": acted(`${KV_LAYOUT}:cluster.name`),
  "high_availability.cluster.mode": acted("plugins/ha-consul/mod.ts:cluster.mode"),
  "high_availability.cluster.storage.consul.parent_path": acted(`${KV_LAYOUT}:parent_path`),
  "high_availability.cluster.storage.consul.namespace": acted("plugins/ha-consul/mod.ts:storage.namespace"),
  "high_availability.cluster.storage.consul.session_ttl": acted("plugins/ha-consul/mod.ts:session_ttl"),
  "high_availability.instance.address": acted("plugins/ha-consul/mod.ts:instance.address"),

  // driver "terraform" {} (plugins/driver-terraform)
  "driver.terraform.version": acted("plugins/driver-terraform/src/driver-factory.ts:options.version"),
  "driver.terraform.path": acted("plugins/driver-terraform/src/driver-factory.ts:options.path"),
  "driver.terraform.log": acted("plugins/driver-terraform/src/terraform-driver.ts:options.log"),
  "driver.terraform.persist_log": acted("plugins/driver-terraform/src/terraform-driver.ts:persist_log"),
  "driver.terraform.working_dir": { refused: `driver "terraform" {\n  working_dir = "/var/cts"\n}\n` },
  "driver.terraform.lock_timeout": acted("plugins/driver-terraform/src/terraform-driver.ts:lock_timeout"),
  "driver.terraform.backend": acted("plugins/driver-terraform/src/backend.ts:backend"),
  "driver.terraform.required_providers": acted("plugins/driver-terraform/src/build-root-module.ts:required_providers"),
  // driver "terraform-cloud" {} (plugins/driver-terraform-cloud)
  "driver.terraform-cloud.hostname": acted(`${TFC_OPTIONS}:hostname`, "plugins/driver-terraform-cloud/src/tfc-client.ts:hostname"),
  "driver.terraform-cloud.organization": acted(`${TFC_WORKSPACE}:organization`),
  "driver.terraform-cloud.token": acted("plugins/driver-terraform-cloud/src/tfc-client.ts:token"),
  "driver.terraform-cloud.workspace_prefix": acted(`${TFC_OPTIONS}:workspace_prefix`, `${TFC_WORKSPACE}:workspacePrefix`),
  "driver.terraform-cloud.workspaces.prefix": acted(`${TFC_OPTIONS}:prefix`, `${TFC_WORKSPACE}:workspacePrefix`),
  "driver.terraform-cloud.workspaces.tags": acted(`${TFC_WORKSPACE}:tags`),
  "driver.terraform-cloud.workspaces.tags_allowlist": acted(`${TFC_WORKSPACE}:tagsAllowlist`),
  "driver.terraform-cloud.workspaces.tags_denylist": acted(`${TFC_WORKSPACE}:tagsDenylist`),
  "driver.terraform-cloud.required_providers": acted("plugins/driver-terraform-cloud/src/terraform-cloud-driver.ts:requiredProviders"),
  "driver.terraform-cloud.tls.enabled": acted("plugins/driver-terraform-cloud/src/driver-factory.ts:tls.enabled"),
  "driver.terraform-cloud.tls.ca_cert": acted(`${TLS_FILES}:ca_cert`),
  "driver.terraform-cloud.tls.ca_path": acted(`${TLS_FILES}:ca_path`),
  "driver.terraform-cloud.tls.cert": acted(`${TLS_FILES}:cert`),
  "driver.terraform-cloud.tls.key": acted(`${TLS_FILES}:key`),
  "driver.terraform-cloud.tls.server_name": acted("plugins/driver-terraform-cloud/src/driver-factory.ts:server_name"),
  "driver.terraform-cloud.tls.verify": acted("plugins/driver-terraform-cloud/src/driver-factory.ts:verify"),
  // task fields the terraform-cloud driver declares (refused under other drivers)
  "task.terraform_cloud_workspace.execution_mode": acted(`${TFC_WORKSPACE}:execution_mode`),
  "task.terraform_cloud_workspace.agent_pool_id": acted(`${TFC_WORKSPACE}:agent_pool_id`),
  "task.terraform_cloud_workspace.agent_pool_name": acted(`${TFC_WORKSPACE}:agent_pool_name`),
  "task.terraform_cloud_workspace.terraform_version": acted(`${TFC_WORKSPACE}:terraform_version`),
  "task.terraform_version": acted("plugins/driver-terraform-cloud/src/workspace-block.ts:terraform_version"),
  // task blocks other plugins own (plugins/task-hooks), under every driver
  "task.hooks.pre_apply.command": acted("plugins/task-hooks/src/hook-command.ts:hook.command"),
  "task.hooks.pre_apply.timeout": acted("plugins/task-hooks/src/hook-command.ts:hook.timeout"),
  "task.hooks.post_apply.command": acted("plugins/task-hooks/src/hook-command.ts:hook.command"),
  "task.hooks.post_apply.timeout": acted("plugins/task-hooks/src/hook-command.ts:hook.timeout"),
  // conditions and module inputs (plugins/consul-inputs, plugins/condition-schedule)
  ...inputBody("task.condition.services", "plugins/consul-inputs/src/services-source.ts"),
  "task.condition.services.names": acted("plugins/consul-inputs/src/services-source.ts:names"),
  "task.condition.services.regexp": acted("plugins/consul-inputs/src/services-source.ts:regexp"),
  "task.condition.services.filter": acted("plugins/consul-inputs/src/services-source.ts:filter"),
  "task.condition.services.cts_user_defined_meta": acted(`${SERVICES_MAP}:cts_user_defined_meta`),
  "task.condition.services.cts_user_defined_meta_by_service": acted(`${SERVICES_MAP}:cts_user_defined_meta_by_service`),
  "task.condition.services.use_as_module_input": acted("plugins/consul-inputs/src/services-condition.ts:use_as_module_input"),
  "task.condition.services.source_includes_var": acted(`${INPUT_OPTIONS}:source_includes_var`),
  ...inputBody("task.condition.catalog-services", "plugins/consul-inputs/src/catalog-services-source.ts"),
  "task.condition.catalog-services.regexp": acted("plugins/consul-inputs/src/catalog-services-source.ts:regexp"),
  "task.condition.catalog-services.node_meta": acted("plugins/consul-inputs/src/catalog-services-source.ts:node_meta"),
  "task.condition.catalog-services.use_as_module_input": acted("plugins/consul-inputs/src/catalog-services-source.ts:use_as_module_input"),
  "task.condition.catalog-services.source_includes_var": acted(`${INPUT_OPTIONS}:source_includes_var`),
  ...inputBody("task.condition.consul-kv", "plugins/consul-inputs/src/consul-kv-source.ts"),
  "task.condition.consul-kv.path": acted("plugins/consul-inputs/src/consul-kv-source.ts:path"),
  "task.condition.consul-kv.recurse": acted("plugins/consul-inputs/src/consul-kv-source.ts:recurse"),
  "task.condition.consul-kv.use_as_module_input": acted("plugins/consul-inputs/src/consul-kv-condition.ts:use_as_module_input"),
  "task.condition.consul-kv.source_includes_var": acted(`${INPUT_OPTIONS}:source_includes_var`),
  ...nodesBody("task.condition.nodes"),
  "task.condition.nodes.use_as_module_input": acted("plugins/condition-nodes/src/nodes-factories.ts:use_as_module_input"),
  "task.condition.schedule.cron": acted("plugins/condition-schedule/src/schedule-condition.ts:cron"),
  ...inputBody("task.module_input.services", "plugins/consul-inputs/src/services-source.ts"),
  "task.module_input.services.names": acted("plugins/consul-inputs/src/services-source.ts:names"),
  "task.module_input.services.regexp": acted("plugins/consul-inputs/src/services-source.ts:regexp"),
  "task.module_input.services.filter": acted("plugins/consul-inputs/src/services-source.ts:filter"),
  "task.module_input.services.cts_user_defined_meta": acted(`${SERVICES_MAP}:cts_user_defined_meta`),
  "task.module_input.services.cts_user_defined_meta_by_service": acted(`${SERVICES_MAP}:cts_user_defined_meta_by_service`),
  ...nodesBody("task.module_input.nodes"),
  ...inputBody("task.module_input.consul-kv", "plugins/consul-inputs/src/consul-kv-source.ts"),
  "task.module_input.consul-kv.path": acted("plugins/consul-inputs/src/consul-kv-source.ts:path"),
  "task.module_input.consul-kv.recurse": acted("plugins/consul-inputs/src/consul-kv-source.ts:recurse"),
};

/** Files that only parse, default or check fields: reading a field there is not acting on it. */
const LOADER_ONLY = ["core/config/build-config.ts", "core/config/config-rules.ts", "core/config/transport-config.ts", "schemas/"];

type Schema = JsonSchema & { properties?: Record<string, Schema>; items?: Schema; additionalProperties?: unknown; $ref?: string };

/** Resolves a `$ref` against the document it appears in; gives the node and its document. */
type Resolve = (ref: string, doc: Schema) => { node: Schema; doc: Schema };

/** Leaf field paths of a schema: nested blocks by name, labelled blocks as `<label>`, maps and lists of values as leaves. */
function fieldPaths(schema: Schema, path: string, resolve: Resolve, out: string[] = [], doc: Schema = schema): string[] {
  const at = (node: Schema): { node: Schema; doc: Schema } => (node.$ref ? resolve(node.$ref, doc) : { node, doc });
  let { node, doc: inDoc } = at(schema);
  if (node.type === "array" && node.items) ({ node, doc: inDoc } = node.items.$ref ? resolve(node.items.$ref, inDoc) : { node: node.items, doc: inDoc });
  const labelled = node.additionalProperties as Schema | undefined;
  if (node.properties) {
    for (const [name, child] of Object.entries(node.properties)) fieldPaths(child, path ? `${path}.${name}` : name, resolve, out, inDoc);
  } else if (typeof labelled === "object" && labelled.properties) {
    fieldPaths(labelled, `${path}.<label>`, resolve, out, inDoc);
  } else {
    out.push(path);
  }
  return out;
}

let schemaFields: string[];

beforeAll(async () => {
  const { rootSchema, documents } = await configSchemas();
  const resolve: Resolve = (ref, current) => {
    const [file, pointer = ""] = ref.split("#");
    const doc = file ? [...documents.values()].find((d) => String(d.$id).endsWith(`/${file}`)) as Schema : current;
    let node = doc;
    for (const key of pointer.split("/").filter(Boolean)) node = (node as Record<string, Schema>)[key]!;
    return { node, doc };
  };
  schemaFields = fieldPaths(rootSchema as Schema, "", resolve);
  const kernel = await createKernel({
    config: testConfig(), runOptions: { mode: "validate", inspectTasks: [], resetStorage: false }, logSink: recordingLogSink(),
  });
  await kernel.init();
  try {
    const drivers = kernel.resolve(driverRegistryToken);
    for (const name of drivers.names()) {
      const factory = drivers.get(name)!;
      fieldPaths(factory.optionsSchema as Schema, `driver.${name}`, resolve, schemaFields);
      for (const [field, schema] of Object.entries(factory.taskBlocks ?? {})) fieldPaths(schema as Schema, `task.${field}`, resolve, schemaFields);
    }
    const taskBlocks = kernel.resolve(taskBlockRegistryToken);
    for (const name of taskBlocks.names()) fieldPaths(taskBlocks.get(name)!.optionsSchema as Schema, `task.${name}`, resolve, schemaFields);
    for (const [token, block] of [[conditionRegistryToken, "condition"], [moduleInputRegistryToken, "module_input"]] as const) {
      const registry = kernel.resolve(token);
      for (const name of registry.names()) fieldPaths(registry.get(name)!.optionsSchema as Schema, `task.${block}.${name}`, resolve, schemaFields);
    }
  } finally {
    await kernel.stop();
  }
});

afterAll(removeConfigDirs);

describe("every config field is acted on, refused, or accepted with a notice", () => {
  it("every field of the schemas has a class, and every class a field", () => {
    expect([...new Set(schemaFields)].sort()).toEqual(Object.keys(EFFECTS).sort());
  });

  it("each field acted on is read by code that acts on it", () => {
    const missing: string[] = [];
    for (const [field, effect] of Object.entries(EFFECTS)) {
      if (!("acted" in effect)) continue;
      expect(effect.acted.length, field).toBeGreaterThan(0);
      for (const evidence of effect.acted) {
        const [file, identifier] = evidence.split(":") as [string, string];
        if (LOADER_ONLY.some((loader) => file.startsWith(loader))) missing.push(`${field}: ${file} only loads config`);
        const text = readFileSync(join(repoRoot, file), "utf8");
        const pattern = new RegExp(`(^|[^A-Za-z0-9_])${identifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9_])`);
        if (!pattern.test(text)) missing.push(`${field}: ${file} does not read ${identifier}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("each refused field is refused at load, naming the field", async () => {
    for (const [field, effect] of Object.entries(EFFECTS)) {
      if (!("refused" in effect)) continue;
      const issues = await ownerIssuesOf({ "a.hcl": effect.refused });
      expect(issues.map((issue) => issue.path), field).toContain(field);
    }
  });

  it("each field without effect is in the loader's list, loads with a notice naming it, and is listed in README.md", async () => {
    const ignored = Object.entries(EFFECTS).filter(([, effect]) => "ignored" in effect).map(([field]) => field);
    expect(INEFFECTIVE_FIELDS.map((field) => field.path).sort()).toEqual([...ignored].sort());
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    for (const field of ignored) {
      const loaded = await loadFiles({ "a.hcl": hclSetting(field) });
      const notes = [...loaded.warnings, ...loaded.notices].map((note) => note.path.replace(/\[\d+\]/g, ""));
      expect(notes, field).toContain(field);
      expect(readme, `README.md lists ${field}`).toContain(`\`${field}\``);
    }
  });
});

/** A config that sets `field` (a dotted path) to a string; a `service` block needs its name too. */
function hclSetting(field: string): string {
  const parts = field.split(".");
  const leaf = parts.pop()!;
  let text = `${leaf} = "x"\n`;
  for (const block of parts.reverse()) text = `${block} {\n${text}${block === "service" ? `name = "web"\n` : ""}}\n`;
  return text.replace(`enabled = "x"`, "enabled = true");
}
