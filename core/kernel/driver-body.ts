/**
 * @module The `driver "<name>" {}` body as its driver reads it. Core's loader keeps the body as
 * written (it runs before any plugin registers); the kernel shapes it by the driver's optionsSchema
 * (nested blocks, labelled blocks, block-syntax maps: core/config/shape-by-schema.ts) and weakly
 * decodes it as CTS decodes driver bodies: one-element lists unwrap in HCL files, not in JSON ones
 * (weak-decode.ts). Checking then runs the schema; completing hands drivers the checked body. The
 * config check and the completion share one decoding and one schema check of a body as written
 * (`BlockOptions.once`), when both know the body's file (the CLI gives the kernel `fileOf`).
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

type BodyIssues = { readonly issues: readonly ConfigIssue[]; readonly value?: Fields };

/** The shaping problems and, without them, the schema's (file and `driver.<name>...` path each). */
export function driverBodyIssues(options: Fields, driver: DriverFactory, file: string, path: string, blocks: BlockOptions): BodyIssues {
  return blocks.once(driver, options, `${file}\0${path}`, () => checkedDriverBody(options, driver, file, path, blocks));
}

function checkedDriverBody(options: Fields, driver: DriverFactory, file: string, path: string, blocks: BlockOptions): BodyIssues {
  const { body, problems } = decodedDriverBody(options, driver, file.endsWith(".json"));
  if (problems.length > 0) {
    return { issues: problems.map((problem) => ({ file, path: problem.path === "" ? path : `${path}.${problem.path}`, message: problem.message })) };
  }
  const result = blocks.check(driver, body, file, path);
  return result.ok ? { issues: [], value: result.value } : { issues: result.issues };
}

/**
 * The configured driver block with its body as the driver reads it (defaults applied), or as written
 * when it does not pass (the check reports it). With `fileOf` (the config's, as the check gets it)
 * the check of the config reuses this decoding; without it the body decodes as HCL, which agrees with
 * JSON's decoding whenever the check passes (a JSON body with a one-element list for a single value
 * fails it).
 */
export function completeDriverBlock(
  config: CtsConfig, driver: DriverFactory | undefined, blocks: BlockOptions, fileOf: (path: string) => string | undefined = () => undefined,
): DriverConfig {
  if (driver?.optionsSchema === undefined) return config.driver;
  const path = `driver.${config.driver.name}`;
  const { value } = driverBodyIssues(config.driver.options, driver, fileOf(path) ?? "", path, blocks);
  return value === undefined ? config.driver : { ...config.driver, options: value };
}
