/**
 * Config errors keep our words (file, field, what was expected) and add CTS's own sentence for the
 * same problem (CTS's config/*.go), which scripts and runbooks written for CTS look for. Each case is
 * loaded as `validate` loads it: the config loader, then the kernel's checks of plugin-owned blocks.
 */
import { afterAll, describe, expect, it } from "vitest";
import { formatIssue } from "../../../core/config/config-error.ts";
import { issuesOf, loadFiles, ownerIssuesOf, removeConfigDirs } from "./config-dir.ts";

afterAll(removeConfigDirs);

const task = (body: string, name = "t") => `task {\n  name = "${name}"\n  module = "./m"\n${body}\n}\n`;
const web = `  condition "services" {\n    names = ["web"]\n  }`;
const tfc = `driver "terraform-cloud" {\n  organization = "o"\n  token = "t"\n}\n`;

/** The printed problems of a configuration (loader, then plugin-owned blocks). */
async function problems(text: string): Promise<string> {
  const files = { "a.hcl": text, "m/main.tf": "" };
  try {
    await loadFiles(files);
  } catch (error) {
    return (await issuesOf(Promise.reject(error))).map(formatIssue).join("\n");
  }
  return (await ownerIssuesOf(files)).map(formatIssue).join("\n");
}

const CASES: readonly (readonly [string, string, string])[] = [
  ["negative buffer period", `buffer_period {\n  min = "-5s"\n}\n${task(web)}`, "buffer_period: cannot be negative"],
  ["schedule without cron", task(`  condition "schedule" {\n  }`), "cron config is required for schedule condition"],
  ["schedule with a bad cron", task(`  condition "schedule" {\n    cron = "nope"\n  }`), "unable to parse schedule condition's cron config"],
  ["a template outside providers", `consul {\n  address = "{{ env \\"X\\" }}"\n}\n${task(web)}`,
    "dynamic configuration using template syntax is only supported for terraform_provider blocks"],
  ["Vault templates without Vault", `terraform_provider "p" {\n  a = "{{ with secret \\"x\\" }}{{ .Data.y }}{{ end }}"\n}\n${task(web)}`,
    "detected dynamic configuration using Vault: missing Vault configuration"],
  ["auto_commit used twice", `terraform_provider "panos" {\n  auto_commit = true\n}\n` +
    task(`  providers = ["panos"]\n${web}`, "a") + task(`  providers = ["panos"]\n${web}`, "b"),
  "provider with autocommit (panos) cannot be used by more than one task"],
  ["an unknown key", `foo = 1\n${task(web)}`, "'a.hcl' has invalid keys: foo"],
  ["a backend CTS does not support", `driver "terraform" {\n  backend "foo" {}\n}\n${task(web)}`, `unsupported Terraform backend by Sync "foo"`],
  ["provider for terraform_provider", `provider "x" {\n}\n${task(web)}`, "'provider' is an invalid key for Consul-Terraform-Sync (CTS) configuration, try 'terraform_provider'"],
  ["a check address without scheme", `consul {\n  service_registration {\n    default_check {\n      address = "localhost:8558"\n    }\n  }\n}\n${task(web)}`,
    "default check address must include scheme (http or https)"],
  ["two module_inputs of one type", task(`${web}\n  module_input "consul-kv" {\n    path = "a"\n  }\n  module_input "consul-kv" {\n    path = "b"\n  }`),
    `more than one 'module_input' block for the "consul_kv" variable. variable types must be unique`],
  ["condition and module_input of one type", task(`${web}\n  module_input "services" {\n    names = ["x"]\n  }`),
    `task's condition block and module_input block both monitor "services" variable type. condition and module_input variable type must be unique`],
  ["catalog-services without regexp", task(`  condition "catalog-services" {\n  }`), "catalog-services 'regexp' field must be set"],
  ["catalog-services with a bad regexp", task(`  condition "catalog-services" {\n    regexp = "(("\n  }`), "unable to compile catalog-services 'regexp': error parsing regexp"],
  ["consul-kv without path", task(`  condition "consul-kv" {\n  }`), "path is required for consul-kv condition"],
  ["services with names and regexp", task(`  condition "services" {\n    names = ["a"]\n    regexp = "b"\n  }`),
    "regexp and names fields cannot both be unconfigured. If both are needed, consider including the list of names as part of the regex or creating separate tasks"],
  ["services with neither", task(`  condition "services" {\n  }`), "either the regexp or names field must be configured"],
  ["services with a bad regexp", task(`  condition "services" {\n    regexp = "(("\n  }`), "unable to compile services regexp: error parsing regexp"],
  ["an empty service name", task(`  condition "services" {\n    names = [""]\n  }`), "names field includes empty string(s). services names cannot be empty"],
  ["a duplicate provider", `terraform_provider "a" {\n}\nterraform_provider "a" {\n}\n${task(web)}`, "duplicate provider configuration: a"],
  ["task_env not a map", `terraform_provider "a" {\n  task_env = "x"\n}\n${task(web)}`, "unexpected task_env block format: task_env should be a map of strings"],
  ["a task_env value not a string", `terraform_provider "a" {\n  task_env {\n    "A" = 1\n  }\n}\n${task(web)}`,
    `unexpected task_env block format: value for "A" should be a string`],
  ["a service without name", `service {\n  id = "x"\n}\n${task(web)}`, "logical name for the Consul service is required"],
  ["a task without name", `task {\n  module = "./m"\n${web}\n}\n`, "unique name for the task is required"],
  ["a bad task name", task(web, "1bad"), `a task name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes: "1bad"`],
  ["a task without module", `task {\n  name = "t"\n${web}\n}\n`, "module for the task is required"],
  ["terraform_version under the terraform driver", task(`  terraform_version = "1.2.3"\n${web}`), "unsupported configuration 'terraform_version'"],
  ["two instances of one provider", `terraform_provider "a" {\n  alias = "x"\n}\nterraform_provider "a" {\n  alias = "y"\n}\n` +
    task(`  providers = ["a.x", "a.y"]\n${web}`), "only one provider instance per task"],
  ["a duplicate task", task(web) + task(web), "duplicate task name: t"],
  ["a task without condition", task(""), "task should be configured with a condition block"],
  ["services field and services condition", task(`  services = ["a"]\n${web}`),
    "task's `services` field and `condition 'services'` block both monitor \"services\" variable type. only one of these can be configured per task"],
  ["API TLS enabled without key", `tls {\n  enabled = true\n  cert = "c.pem"\n}\n${task(web)}`, "key is required if cert is configured for TLS on the CTS API"],
  ["verify_incoming without CA", `tls {\n  verify_incoming = true\n}\n${task(web)}`, "either ca_cert or ca_path is required if verify_incoming is enabled on the CTS API"],
  ["an unknown condition", task(`  condition "nope" {\n  }`), "unsupported condition type: nope"],
  ["an unknown key in a condition", task(`  condition "services" {\n    names = ["a"]\n    foo = 1\n  }`), "invalid keys: foo"],
  ["execution mode local", tfc + task(`  terraform_cloud_workspace {\n    execution_mode = "local"\n  }\n${web}`),
    "execution mode 'local' not supported for CTS, use 'remote' or 'agent' instead"],
  ["agent mode without pool", tfc + task(`  terraform_cloud_workspace {\n    execution_mode = "agent"\n  }\n${web}`),
    "agent_pool_id or agent_pool_name is required if execution mode is 'agent'"],
  ["a pool without agent mode", tfc + task(`  terraform_cloud_workspace {\n    agent_pool_id = "x"\n  }\n${web}`),
    "agent pool configured when execution mode is not 'agent'"],
  ["an inexact terraform_version", tfc + task(`  terraform_cloud_workspace {\n    terraform_version = "1.9"\n  }\n${web}`),
    "provide the exact Terraform version to install: 1.9"],
  ["a terraform_version CTS does not support", tfc + task(`  terraform_cloud_workspace {\n    terraform_version = "0.12.31"\n  }\n${web}`),
    "Terraform version is not supported by Consul-Terraform-Sync, try updating to a different version (>= 0.13.0): 0.12.31"],
];

describe("config errors carry CTS's sentence after ours", () => {
  it.concurrent.each(CASES)("%s", async (_, text, sentence) => {
    const printed = await problems(text);
    expect(printed).toContain(sentence);
    // Ours stays first: the file and the field it names.
    expect(printed).toMatch(/^a\.hcl: /);
  });
});
