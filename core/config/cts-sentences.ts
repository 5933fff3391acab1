/**
 * @module CTS's own sentence for a config problem, added after ours. Our messages name the file and
 * field and say what was expected; scripts and runbooks written for CTS search for CTS's words
 * (its config/*.go), so where CTS has a sentence for the same problem it follows ours in
 * parentheses. Each entry recognises one problem by its field path and our message.
 */
import type { ConfigIssue } from "./config-error.ts";

interface Sentence {
  /** The problem's field path. */
  readonly at: RegExp;
  /** Our message for it. */
  readonly says: RegExp;
  /** CTS's sentence, from what the two matched. */
  readonly cts: (path: RegExpExecArray, message: RegExpExecArray, issue: ConfigIssue) => string;
}

const TASK = String.raw`^(?:task\[\d+\])?`;

const SENTENCES: readonly Sentence[] = [
  { at: /buffer_period\.(min|max)$/, says: /^must not be negative$/, cts: () => "buffer_period: cannot be negative" },
  {
    at: /./, says: /^template syntax .* is only allowed in terraform_provider blocks( \(and .*\))?$/,
    cts: () => "dynamic configuration using template syntax is only supported for terraform_provider blocks",
  },
  {
    at: /./, says: /^uses \{\{ with secret \}\} but Vault is not configured/,
    cts: () => "detected dynamic configuration using Vault: missing Vault configuration",
  },
  {
    at: /^terraform_provider\[\d+\]\.([^.]+)\.auto_commit$/, says: /^a provider with auto_commit may be used by one task only/,
    cts: (path) => `provider with autocommit (${path[1]}) cannot be used by more than one task`,
  },
  { at: /^terraform_provider\[\d+\]\.[^.]+$/, says: /^duplicate terraform_provider "([^"]+)"/, cts: (_, m) => `duplicate provider configuration: ${m[1]}` },
  {
    at: /^terraform_provider\[\d+\]\.[^.]+\.task_env\.(.+)$/, says: /^must be a string/,
    cts: (path) => `unexpected task_env block format: value for ${JSON.stringify(path[1])} should be a string`,
  },
  {
    at: /^terraform_provider\[\d+\]\.[^.]+\.task_env$/, says: /^must be a block\/object/,
    cts: () => "unexpected task_env block format: task_env should be a map of strings",
  },
  { at: /^provider$/, says: /^unknown field/, cts: () => "'provider' is an invalid key for Consul-Terraform-Sync (CTS) configuration, try 'terraform_provider'" },
  { at: /^(license|license_path)$/, says: /^unknown field/, cts: (path) => `'${path[1]}' is a Consul-Terraform-Sync (CTS) Enterprise configuration` },
  { at: /^([^.[]+)$/, says: /^unknown field/, cts: (path, _, issue) => `'${issue.file}' has invalid keys: ${path[1]}` },
  {
    at: /^consul\.service_registration\.default_check\.address$/, says: /^must be an absolute http\(s\) URL, got "(?!http)/i,
    cts: () => "default check address must include scheme (http or https)",
  },
  { at: /^driver\.terraform\.backend$/, says: /^"([^"]*)" is not supported/, cts: (_, m) => `unsupported Terraform backend by Sync ${JSON.stringify(m[1])}` },
  { at: /^service\[\d+\]\.name$/, says: /^is required$/, cts: () => "logical name for the Consul service is required" },
  { at: new RegExp(`${TASK}\\.?name$`), says: /^(is required|task name must not be empty)$/, cts: () => "unique name for the task is required" },
  {
    at: new RegExp(`${TASK}\\.?name$`), says: /^task name "(.*)" is not valid: it must start with a letter/,
    cts: (_, m) => `a task name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes: "${m[1]}"`,
  },
  { at: new RegExp(`${TASK}\\.?module$`), says: /^is required/, cts: () => "module for the task is required" },
  { at: new RegExp(`${TASK}\\.?condition$`), says: /^is required/, cts: () => "task should be configured with a condition block" },
  { at: new RegExp(`${TASK}\\.?providers$`), says: /are both ".*": use one per task$/, cts: () => "only one provider instance per task" },
  { at: /^task\[\d+\]\.name$/, says: /^duplicate task name "([^"]*)"/, cts: (_, m) => `duplicate task name: ${m[1]}` },
  {
    at: new RegExp(`${TASK}\\.?services$`), says: /^and condition "services" both monitor the "services" variable/,
    cts: () => "task's `services` field and `condition 'services'` block both monitor \"services\" variable type. only one of these can be configured per task",
  },
  {
    at: /module_input\[\d+\]\.[^.]+$/, says: /^"([^"]+)" is already provided by condition/,
    cts: (_, m) => `task's condition block and module_input block both monitor "${m[1]}" variable type. condition and module_input variable type must be unique`,
  },
  {
    at: /module_input\[\d+\]\.[^.]+$/, says: /^"([^"]+)" is already provided by module_input/,
    cts: (_, m) => `more than one 'module_input' block for the "${m[1]}" variable. variable types must be unique`,
  },
  {
    at: new RegExp(`${TASK}\\.?(terraform_version|terraform_cloud_workspace)$`), says: /^is only supported by the "terraform-cloud" driver$/,
    cts: (path) => `unsupported configuration '${path[1]}'. This option is available for Consul-Terraform-Sync Enterprise when using the Terraform Cloud driver`,
  },
  { at: /condition\.schedule\.cron$/, says: /^is required$/, cts: () => "cron config is required for schedule condition" },
  { at: /condition\.schedule\.cron$/, says: /^is not a valid cron expression/, cts: () => "unable to parse schedule condition's cron config" },
  { at: /condition\.catalog-services\.regexp$/, says: /^is required$/, cts: () => "catalog-services 'regexp' field must be set" },
  {
    at: /condition\.catalog-services\.regexp$/, says: /^is not a valid RE2 regular expression: (.*)$/,
    cts: (_, m) => `unable to compile catalog-services 'regexp': ${m[1]}`,
  },
  { at: /condition\.consul-kv\.path$/, says: /^is required$/, cts: () => "path is required for consul-kv condition" },
  {
    at: /\.services\.regexp$/, says: /^regexp and names are both set/,
    // CTS's own words, "unconfigured" included (it means "configured").
    cts: () => "regexp and names fields cannot both be unconfigured. If both are needed, consider including the list of names as part of the regex or creating separate tasks",
  },
  { at: /\.services$/, says: /^needs either names or regexp$/, cts: () => "either the regexp or names field must be configured" },
  { at: /\.services\.regexp$/, says: /^is not a valid RE2 regular expression: (.*)$/, cts: (_, m) => `unable to compile services regexp: ${m[1]}` },
  { at: /\.services\.names\[\d+\]$/, says: /^must not be empty$/, cts: () => "names field includes empty string(s). services names cannot be empty" },
  { at: /(condition|module_input\[\d+\])\.([^.]+)$/, says: /^unknown (condition|module_input) "([^"]+)"/, cts: (_, m) => `unsupported ${m[1]} type: ${m[2]}` },
  { at: /(condition\.[^.]+|module_input\[\d+\]\.[^.]+)\.([^.]+)$/, says: /^unknown field/, cts: (path) => `invalid keys: ${path[2]}` },
  { at: /^tls\.cert$/, says: /^tls is enabled: both cert and key are required$/, cts: () => "key and cert are required if TLS is enabled on the CTS API" },
  { at: /^tls\.key$/, says: /^(tls is enabled: both cert and key are required|cert and key must be set together)$/, cts: () => "key is required if cert is configured for TLS on the CTS API" },
  {
    at: /^tls\.verify_incoming$/, says: /^requires ca_cert or ca_path/,
    cts: () => "either ca_cert or ca_path is required if verify_incoming is enabled on the CTS API",
  },
  { at: /^$/, says: /^no configuration files \(/, cts: () => "no configuration files found" },
];

/** CTS's sentence for `issue` in parentheses, or "" when CTS has none (or ours already says it). */
export function ctsSentence(issue: ConfigIssue): string {
  for (const sentence of SENTENCES) {
    const path = sentence.at.exec(issue.path);
    const message = path && sentence.says.exec(issue.message);
    if (!path || !message) continue;
    const words = sentence.cts(path, message, issue);
    return issue.message.includes(words) ? "" : ` (${words})`;
  }
  return "";
}
