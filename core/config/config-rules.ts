/**
 * @module Cross-field rules of the whole configuration (beyond one task): unique task names and
 * provider ids, API TLS completeness, the default check address, log level, where templates may
 * appear, and Vault for `{{ with secret }}`.
 */
import { type CtsConfig, quoteValue } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";
import { negativeBufferFields, type RawBufferPeriod } from "./buffer-period.ts";
import { secretTemplatePaths, TEMPLATE_PLACES, templatePaths } from "./template-syntax.ts";
import { apiIssues } from "./api-block.ts";
import { consulTemplateIssues } from "./consul-credentials.ts";

type Json = Record<string, unknown>;
const LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERR"];

/** `fileOf` names the file of a CTS-style path of the merged raw config. */
export function configIssues(raw: Json, config: CtsConfig, fileOf: (path: string) => string | undefined): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add = (path: string, message: string): void => {
    issues.push({ file: fileOf(path) ?? "", path, message });
  };

  if (!LOG_LEVELS.includes(config.log_level)) {
    add("log_level", `must be one of ${LOG_LEVELS.join(", ")}, got ${quoteValue(raw.log_level)}`);
  }
  for (const field of negativeBufferFields(raw.buffer_period as RawBufferPeriod | undefined)) {
    add(`buffer_period.${field}`, "must not be negative");
  }

  // One file may hold one driver block (the schema checks that); two files may still name two drivers.
  const drivers = Object.keys((raw.driver as Json | undefined) ?? {});
  if (drivers.length > 1) {
    add(`driver.${drivers[1]}`, `only one "driver" block can be configured, found ${drivers.map((name) => `"${name}"`).join(" and ")}`);
  }

  // CTS (ServiceConfigs.Validate): a deprecated service block's id defaults to its name, and ids are unique,
  // since tasks' deprecated `services` lists name blocks by id.
  const serviceById = new Map<string, number>();
  ((raw.service as Json[] | undefined) ?? []).forEach((service, index) => {
    const hasId = typeof service.id === "string";
    const id = String(hasId ? service.id : service.name);
    const first = serviceById.get(id);
    if (first === undefined) serviceById.set(id, index);
    else {
      add(`service[${index}].${hasId ? "id" : "name"}`, `unique service IDs are required: "${id}" is already the id of ` +
        `service[${first}] in ${fileOf(`service[${first}]`) ?? "?"} (a service block's id defaults to its name)`);
    }
  });

  const taskByName = new Map<string, number>();
  config.tasks.forEach((task, index) => {
    const first = taskByName.get(task.name);
    if (first === undefined) taskByName.set(task.name, index);
    else {
      add(`task[${index}].name`, `duplicate task name "${task.name}" (first defined at task[${first}] in ` +
        `${fileOf(`task[${first}]`) ?? "?"}): task names must be unique`);
    }
  });

  const providerById = new Map<string, number>();
  config.terraform_providers.forEach((provider, index) => {
    const first = providerById.get(provider.id);
    if (first === undefined) providerById.set(provider.id, index);
    else add(`terraform_provider[${index}].${provider.name}`, `duplicate terraform_provider "${provider.id}": ` +
      `give one of them an alias`);
    if (provider.auto_commit === true) {
      const users = config.tasks.filter((task) => task.providers.includes(provider.id)).map((task) => task.name);
      if (users.length > 1) {
        add(`terraform_provider[${index}].${provider.name}.auto_commit`,
          `a provider with auto_commit may be used by one task only, used by: ${users.join(", ")}`);
      }
    }
    if (config.vault?.enabled !== true) {
      // Anywhere in the block, nested values and task_env included: all are resolved the same way.
      for (const path of secretTemplatePaths({ ...provider.arguments, task_env: provider.task_env })) {
        add(`terraform_provider[${index}].${provider.name}.${path}`,
          "uses {{ with secret }} but Vault is not configured (set vault { address = ... } or VAULT_ADDR)");
      }
    }
  });

  const pluginByName = new Map<string, number>();
  config.plugins.forEach((plugin, index) => {
    if (pluginByName.has(plugin.name)) add(`plugin[${index}].${plugin.name}`, `duplicate plugin "${plugin.name}"`);
    pluginByName.set(plugin.name, index);
  });

  const tls = config.tls;
  if (tls.enabled && (tls.cert === "" || tls.key === "")) {
    add(tls.cert === "" ? "tls.cert" : "tls.key", "tls is enabled: both cert and key are required");
  } else if (!tls.enabled && (tls.cert === "") !== (tls.key === "")) {
    add(tls.cert === "" ? "tls.cert" : "tls.key", "cert and key must be set together");
  }
  if (tls.verify_incoming && tls.ca_cert === "" && tls.ca_path === "") {
    add("tls.verify_incoming", "requires ca_cert or ca_path to verify client certificates");
  }

  const check = config.consul.service_registration.default_check.address;
  if (!/^http/i.test(check) || !URL.canParse(check)) {
    add("consul.service_registration.default_check.address", `must be an absolute http(s) URL, got ${quoteValue(check)}`);
  }

  for (const [key, value] of Object.entries(raw)) {
    // The driver block belongs to its plugin, which may resolve templates in fields it declares:
    // the kernel checks it against the driver's factory (core/kernel/task-blocks.ts).
    // api.token may hold templates too (api-block.ts checks the block).
    if (key === "terraform_provider" || key === "task" || key === "driver" || key === "api") continue;
    // The consul block's credentials may read Vault (consul-credentials.ts checks the block).
    if (key === "consul") {
      for (const issue of consulTemplateIssues(value, config.vault?.enabled === true)) add(issue.path, issue.message);
      continue;
    }
    for (const at of templatePaths(value, key)) add(at, TEMPLATE_PLACES);
  }

  if (config.api) {
    for (const issue of apiIssues(config.api, (raw.api as Json | undefined) ?? {}, config.vault?.enabled === true)) {
      add(issue.path, issue.message);
    }
  }

  const mode = config.high_availability?.cluster.mode;
  if (mode !== undefined && mode !== "leader" && mode !== "shared") {
    add("high_availability.cluster.mode", `must be "leader" (one leader runs every task, as CTS) or "shared" (every instance runs a share of the tasks), got ${quoteValue(mode)}`);
  }
  // Rules between the driver block and the rest (a local backend under high_availability) are the
  // driver's `validate` hook, which gets the whole configuration.
  return issues;
}
