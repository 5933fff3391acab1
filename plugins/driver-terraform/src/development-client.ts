/**
 * @module CTS's development client (`start --client-type=development`), which CTS's own e2e tests
 * start the daemon with: Terraform is never run (init, validate, plan and apply only log and
 * succeed; a plan always reports changes), while the task's files are still written. Providers
 * named `fake-sync` then act as CTS's fake post-apply handlers: each prints
 * `FakeHandler: '<name>'` and, with `err = true`, fails the run with "error <name>" — except the
 * task's first run when `success_first = true`.
 */
import type { DriverFactory, Logger, ProcessResult, ProcessRunner, ProviderConfig } from "../../../core/plugin-api/mod.ts";
import { CtsError } from "../../../core/plugin-api/mod.ts";
import { afterApply } from "./after-apply.ts";

/** What CTS's Printer client logs for each Terraform command it stands in for. */
const PRINTED: Readonly<Record<string, string>> = {
  init: "initing workspace", validate: "validating workspace", plan: "planning workspace", apply: "applying workspace",
  // Not in CTS's Printer (it has no such steps); said plainly.
  destroy: "destroying workspace", workspace: "selecting workspace",
};

const VALID = JSON.stringify({ format_version: "1.0", valid: true, error_count: 0, warning_count: 0, diagnostics: [] });

/** A ProcessRunner that answers every Terraform command as a no-op success (plan: changes, exit 2). */
export function printerProcessRunner(real: ProcessRunner, logger: Logger): ProcessRunner {
  return {
    which: (command) => real.which(command),
    run(command, args, options): Promise<ProcessResult> {
      const verb = args.find((arg) => !arg.startsWith("-")) ?? "";
      // `version` still runs for real: the binary is located and reported as usual.
      if (verb === "version") return real.run(command, args, options);
      logger.info(PRINTED[verb] ?? `skipping terraform ${verb}`, { client: "development", working_dir: options?.cwd ?? "" });
      return Promise.resolve({ exitCode: verb === "plan" ? 2 : 0, stdout: verb === "validate" ? VALID : "", stderr: "" });
    },
  };
}

interface FakeHandler {
  readonly name: string;
  readonly err: boolean;
  readonly successFirst: boolean;
  first: boolean;
}

function fakeHandlers(taskProviders: readonly string[], providers: readonly ProviderConfig[]): FakeHandler[] {
  const handlers: FakeHandler[] = [];
  for (const id of taskProviders) {
    const provider = providers.find((p) => p.id === id);
    if (!provider || provider.name !== "fake-sync") continue;
    const { name, err, success_first: successFirst } = provider.arguments as { name?: unknown; err?: unknown; success_first?: unknown };
    if (typeof name !== "string" || name === "") {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use terraform_provider "fake-sync" (${id}): its "name" must be a non-empty string`);
    }
    handlers.push({ name, err: err === true, successFirst: successFirst === true, first: true });
  }
  return handlers;
}

/** CTS's handler chain: every handler runs; the run fails with the last error any of them returned. */
function runHandlers(handlers: FakeHandler[], print: (line: string) => void): void {
  let failure: string | undefined;
  for (const handler of handlers) {
    print(`FakeHandler: '${handler.name}'\n`);
    let error = handler.err ? `error ${handler.name}` : undefined;
    if (handler.first) {
      handler.first = false;
      if (handler.successFirst) error = undefined;
    }
    if (error !== undefined) failure = error;
  }
  if (failure !== undefined) throw new CtsError("CTS_ERR_DRIVER", failure);
}

/** Wraps the terraform factory: its drivers run the fake-sync handlers after each apply. */
export function developmentFactory(factory: DriverFactory, print: (line: string) => void): DriverFactory {
  return {
    ...factory,
    async create(task, ctx) {
      const driver = await factory.create(task, ctx);
      const handlers = fakeHandlers(task.providers, ctx.providers);
      return handlers.length === 0 ? driver : afterApply(driver, () => runHandlers(handlers, print));
    },
  };
}
