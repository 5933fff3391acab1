/**
 * @module Loads a CTS configuration the way CTS does: every `-config-file` / `-config-dir` in the order
 * given, HCL or JSON, merged, then defaults and environment fallbacks, then validation. Every problem
 * of every file is reported at once in one ConfigError, each naming file, field and expectation.
 */
import type { CtsConfig, TaskConfig } from "../plugin-api/mod.ts";
import { hostName as osHostName } from "../runtime/host-name.ts";
import { listRegularFiles, parentDir, pathKind, readTextFile, resolvePath } from "../runtime/config-files.ts";
import { buildConfig } from "./build-config.ts";
import { apiTlsKeyPairIssues } from "./api-tls-key-pair.ts";
import { buildTask } from "./build-task.ts";
import { ConfigError, type ConfigIssue } from "./config-error.ts";
import { configIssues } from "./config-rules.ts";
import { configSchemas, issuesFromAjv } from "./config-schemas.ts";
import { deepFreeze } from "./deep-freeze.ts";
import { mergeFragments, ownerOf } from "./merge-fragments.ts";
import { isConfigFileName, parseConfigText } from "./parse-config-file.ts";
import { rootBody } from "./block-specs.ts";
import { shapeBody } from "./shape-blocks.ts";
import { taskIssues } from "./task-rules.ts";
import { driverTaskFields, unknownTaskField } from "./task-fields.ts";
import { readVariableFiles } from "./variable-files.ts";
import { ineffectiveFieldNotes } from "./ineffective-fields.ts";
import { syslogIssues } from "./syslog-rules.ts";
import { weakDecode } from "./weak-decode.ts";
import { type ConfigSecret, envTemplateSecrets } from "./config-secrets.ts";
import { integerNotes } from "./integer-notes.ts";
import { vaultAddressNotes } from "./vault-address.ts";

type Json = Record<string, unknown>;

export interface ConfigPath {
  readonly kind: "file" | "dir";
  readonly path: string;
}

export interface LoadConfigOptions {
  /** `-config-file` / `-config-dir` values, in command-line order. */
  readonly paths: readonly ConfigPath[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative config paths and `variable_files` resolve against this. */
  readonly cwd: string;
  /** Overrides the OS host name in the default id `cts-<hostname>` (tests). */
  readonly hostName?: string;
}

export interface LoadedConfig {
  /** Complete and deep-frozen. */
  readonly config: CtsConfig;
  /**
   * The file that set a field, by CTS-style path of the config as written (`task[1].condition`,
   * `driver.terraform`); `tasks[1]`, `terraform_providers[0]`, `plugins[0]` are accepted too.
   */
  fileOf(instancePath: string): string | undefined;
  /** Accepted but noteworthy settings (deprecated fields, ignored buffer periods), to log at WARN. */
  readonly warnings: readonly ConfigIssue[];
  /** Settings accepted without effect that need no warning (CTS Enterprise's licence), to log at INFO. */
  readonly notices: readonly ConfigIssue[];
  /**
   * The values `{{ env }}` templates put into the config, for the secret masker (the kernel adds the
   * config's own secret fields itself).
   */
  readonly templateSecrets: readonly ConfigSecret[];
}

const LIST_KEYS = ["task", "terraform_provider", "plugin", "service"];

export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const issues: ConfigIssue[] = [];
  const files = await expandPaths(options, issues);
  const schemas = await configSchemas();
  const offsets: Record<string, number> = Object.fromEntries(LIST_KEYS.map((key) => [key, 0]));
  const fragments: { file: string; value: Json }[] = [];
  // Task fields core does not read belong to drivers, which the kernel knows: they are reported here
  // (as unknown fields, as before plugins owned them) only when the configuration fails anyway.
  const undeclared: ConfigIssue[] = [];
  const decodeWarnings: ConfigIssue[] = [];
  for (const file of files) {
    const text = await readTextFile(resolvePath(options.cwd, file));
    if (text.length === 0) continue; // CTS skips empty files
    const parsed = await parseConfigText(file, text);
    if (!parsed.ok) {
      issues.push(parsed.issue);
      continue;
    }
    const shaped = weakDecode(shapeBody(parsed.value, rootBody, "", { file, issues, offsets }), schemas.rootSchema, {
      documents: schemas.documents, unwrapLists: !file.endsWith(".json"), numbers: integerNotes(file, offsets, issues, decodeWarnings),
    }) as Json;
    if (!schemas.root(shaped)) issues.push(...issuesFromAjv(schemas.root.errors, file, offsets));
    undeclared.push(...undeclaredTaskFields(shaped, file, offsets.task!));
    for (const key of LIST_KEYS) if (Array.isArray(shaped[key])) offsets[key]! += (shaped[key] as unknown[]).length;
    fragments.push({ file, value: shaped });
  }
  if (fragments.length === 0 && issues.length === 0) {
    const given = options.paths.map((entry) => entry.path).join(", ") || "(none given)";
    issues.push({ file: "", path: "", message: `no configuration files (.hcl or .json) found in ${given}` });
  }
  if (issues.length > 0) throw new ConfigError([...undeclared, ...issues]);

  const merged = mergeFragments(fragments);
  const fileOf = (path: string): string | undefined => ownerOf(merged.owners, rawPath(path));
  const raw = merged.value;
  const rawTasks = (raw.task as Json[] | undefined) ?? [];
  const variableFiles = await Promise.all(rawTasks.map(async (task, index) => {
    const list = (task.variable_files as string[] | undefined) ?? [];
    try {
      return await readVariableFiles(list, options.cwd);
    } catch (error) {
      issues.push({ file: fileOf(`task[${index}]`) ?? "", path: `task[${index}].variable_files`, message: (error as Error).message });
      return {};
    }
  }));

  const warnings: ConfigIssue[] = [...decodeWarnings];
  const config = buildConfig(raw, {
    env: options.env,
    homeVaultToken: await readHomeVaultToken(raw, options.env),
    hostName: options.hostName ?? osHostName(),
    sources: fragments.map((fragment) => resolvePath(options.cwd, fragment.file)),
    resolvePluginSource: (source, index) => {
      if (!source.startsWith(".") && !source.startsWith("/")) return source;
      return resolvePath(parentDir(resolvePath(options.cwd, fileOf(`plugin[${index}]`) ?? "")), source);
    },
    buildTasks: (defaults) =>
      rawTasks.map((task, index): TaskConfig => {
        const file = fileOf(`task[${index}]`) ?? "";
        const path = `task[${index}]`;
        const built = buildTask(task, { file, path, defaults, warnings });
        const withFiles = { ...built, variables: { ...variableFiles[index], ...built.variables } };
        issues.push(...taskIssues(task, withFiles, file, path));
        return withFiles;
      }),
  });
  issues.push(...configIssues(raw, config, fileOf), ...syslogIssues(config, fileOf));
  issues.push(...await apiTlsKeyPairIssues(config, fileOf, options.cwd));
  const vault = vaultAddressNotes(config, fileOf);
  issues.push(...vault.issues);
  warnings.push(...vault.warnings);
  if (raw.service !== undefined) {
    warnings.push({ file: fileOf("service") ?? "", path: "service", message: "deprecated: use condition/module_input blocks" });
  }
  if (issues.length > 0) throw new ConfigError([...undeclared, ...issues]);
  const notes = ineffectiveFieldNotes(raw, fileOf);
  return {
    config: deepFreeze(config), fileOf, warnings: [...warnings, ...notes.warnings], notices: notes.notices,
    templateSecrets: envTemplateSecrets(raw, options.env),
  };
}

/** An unknown-field issue for each field of the file's tasks that core does not read. */
function undeclaredTaskFields(shaped: Json, file: string, offset: number): ConfigIssue[] {
  const tasks = Array.isArray(shaped.task) ? shaped.task : [];
  return tasks.flatMap((task, index) => typeof task === "object" && task !== null
    ? driverTaskFields(task as Json).map((field) => unknownTaskField(field, file, `task[${index + offset}]`))
    : []);
}

/** `~/.vault-token` when Vault is configured (block or VAULT_ADDR) and the file is there. */
async function readHomeVaultToken(raw: Record<string, unknown>, env: LoadConfigOptions["env"]): Promise<string | undefined> {
  if ((raw.vault === undefined && !env.VAULT_ADDR) || !env.HOME) return undefined;
  const path = resolvePath(env.HOME, ".vault-token");
  if ((await pathKind(path)) !== "file") return undefined;
  return (await readTextFile(path)).trim();
}

/** Config files in order: a file as given, a directory's regular `.hcl`/`.json` files by name. */
async function expandPaths(options: LoadConfigOptions, issues: ConfigIssue[]): Promise<string[]> {
  const files: string[] = [];
  for (const entry of options.paths) {
    const absolute = resolvePath(options.cwd, entry.path);
    const kind = await pathKind(absolute);
    if (kind === "missing") {
      issues.push({ file: entry.path, path: "", message: `config ${entry.kind} does not exist` });
    } else if (kind === "dir") {
      const inDir = await listRegularFiles(absolute);
      const prefix = entry.path.endsWith("/") ? entry.path : `${entry.path}/`;
      for (const file of inDir) {
        const name = file.slice(absolute.length + 1);
        if (isConfigFileName(name)) files.push(`${prefix}${name}`);
      }
    } else if (kind === "file") {
      if (isConfigFileName(entry.path)) files.push(entry.path);
    } else {
      issues.push({ file: entry.path, path: "", message: "is neither a regular file nor a directory" });
    }
  }
  return files;
}

/** Accepts paths of `CtsConfig` (`tasks[0]`) for those of the file (`task[0]`). */
function rawPath(path: string): string {
  return path.replace(/^tasks\[/, "task[").replace(/^terraform_providers\[/, "terraform_provider[")
    .replace(/^plugins\[/, "plugin[");
}
