/** @module The one error type of config loading: every problem found, each naming file and field. */
import { CtsError, cutText } from "../plugin-api/mod.ts";
import { ctsSentence } from "./cts-sentences.ts";

export interface ConfigIssue {
  /** The config file the field came from; `""` when the value is not from a file (API body, defaults). */
  readonly file: string;
  /** CTS-style field path, e.g. `task[1].condition.services.regexp`; `""` for the whole file. */
  readonly path: string;
  /** What is wrong and what was expected. */
  readonly message: string;
}

/** `file: path: message`, with CTS's own sentence for the problem after ours when CTS has one. */
export function formatIssue(issue: ConfigIssue): string {
  const where = [issue.file, issue.path].filter((part) => part !== "").join(": ");
  const message = `${cutText(issue.message)}${ctsSentence(issue)}`;
  return where === "" ? message : `${where}: ${message}`;
}

export class ConfigError extends CtsError {
  override readonly name: string = "ConfigError";
  readonly issues: readonly ConfigIssue[];
  constructor(issues: readonly ConfigIssue[], options?: ErrorOptions) {
    const count = issues.length === 1 ? "1 error" : `${issues.length} errors`;
    super(
      "CTS_ERR_CONFIG_INVALID",
      `Cannot load configuration: ${count}\n${issues.map((issue) => `  * ${formatIssue(issue)}`).join("\n")}`,
      options,
    );
    this.issues = issues;
  }
}

/** Duck-typed like `isCtsError`, so copies of this module in other bundles still match. */
export function isConfigError(value: unknown): value is ConfigError {
  return (
    typeof value === "object" && value !== null &&
    (value as { code?: unknown }).code === "CTS_ERR_CONFIG_INVALID" &&
    Array.isArray((value as { issues?: unknown }).issues)
  );
}
