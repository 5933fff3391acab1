/**
 * @module The `driver "<name>" {}` body as its driver reads it. Core's loader keeps the body as
 * written (it runs before any plugin registers); the kernel shapes it by the driver's optionsSchema
 * (nested blocks, labelled blocks, block-syntax maps: core/config/shape-by-schema.ts) and weakly
 * decodes it as CTS decodes driver bodies: one-element lists unwrap in HCL files, not in JSON ones
 * (weak-decode.ts). Checking then runs the schema; completing hands drivers the checked body.
 */
import type { CtsConfig, DriverConfig, DriverFactory } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import { shapeBySchema, type ShapeProblem } from "../config/shape-by-schema.ts";
import { weakDecode } from "../config/weak-decode.ts";
import type { BlockOptions } from "./block-options.ts";

type Fields = Readonly<Record<string, unknown>>;

/** The body shaped and decoded by `driver`'s schema; shaping problems have paths inside the body. */
export function decodedDriverBody(
  options: Fields, driver: DriverFactory, json: boolean,
): { readonly body: Fields; readonly problems: readonly ShapeProblem[] } {
  const schema = driver.optionsSchema as Record<string, unknown> | undefined;
  if (schema === undefined) return { body: options, problems: [] };
  const problems: ShapeProblem[] = [];
  const shaped = shapeBySchema(options, schema, problems);
  const body = weakDecode(shaped, schema, { documents: new Map(), unwrapLists: !json }) as Fields;
  return { body, problems };
}

/** The shaping problems and, without them, the schema's (file and `driver.<name>...` path each). */
export function driverBodyIssues(
  options: Fields, driver: DriverFactory, file: string, path: string, blocks: BlockOptions,
): { readonly issues: readonly ConfigIssue[]; readonly value?: Fields } {
  const { body, problems } = decodedDriverBody(options, driver, file.endsWith(".json"));
  if (problems.length > 0) {
    return { issues: problems.map((problem) => ({ file, path: problem.path === "" ? path : `${path}.${problem.path}`, message: problem.message })) };
  }
  const result = blocks.check(driver, body, file, path);
  return result.ok ? { issues: [], value: result.value } : { issues: result.issues };
}

/**
 * The configured driver block with its body as the driver reads it (defaults applied), or as written
 * when it does not pass (the check reports it). The kernel completes after the check passed, where
 * HCL's and JSON's decoding agree (a JSON body with a one-element list for a single value fails it).
 */
export function completeDriverBlock(config: CtsConfig, driver: DriverFactory | undefined, blocks: BlockOptions): DriverConfig {
  if (driver?.optionsSchema === undefined) return config.driver;
  const { value } = driverBodyIssues(config.driver.options, driver, "", "", blocks);
  return value === undefined ? config.driver : { ...config.driver, options: value };
}
