/**
 * @module The task file a `task create` or `task update` reads, or CTS's error lines and exit code
 * when it cannot be read (`unable to <verb>`, then why).
 */
import { ExitCode, type ParsedArgs } from "../command.ts";
import type { CliIo } from "../../runtime/cli-io.ts";
import { PROGRAM } from "../format-help.ts";
import { errorMessage } from "../../plugin-api/mod.ts";
import { ui as makeUi } from "./task-shared.ts";
import { TaskFileError, taskRequestFromFile } from "./task-request.ts";

/** The request task of `-task-file`, or the exit code after printing why there is none. */
export async function taskFromFileFlag(
  args: ParsedArgs, io: CliIo, command: "task create" | "task update", failing: string,
): Promise<Record<string, unknown> | number> {
  const file = (args.flags["task-file"] as string | undefined) ?? "";
  const out = makeUi(io);
  if (file === "") {
    out.error(failing);
    out.output("no task file provided");
    out.output(`For additional help try '${PROGRAM} ${command} --help'`);
    return ExitCode.requiredFlagMissing;
  }
  try {
    return await taskRequestFromFile(file, io.cwd, io.env);
  } catch (error) {
    out.error(failing);
    if (!(error instanceof TaskFileError)) out.output("unable to read task file");
    out.output(errorMessage(error));
    return ExitCode.runtimeError;
  }
}
