/**
 * @module What CTS's task commands share, in CTS's words (command/meta.go), since scripts and
 * runbooks match them: the `==> ` / 4-space output style, the approval prompt (only a literal `yes`
 * proceeds), the argument and flag errors, and failures turned into CTS's exit codes.
 */
import { ExitCode, type FlagSpec, type ParsedArgs } from "../command.ts";
import type { CliIo } from "../../runtime/cli-io.ts";
import { ApiRequestError, clientFromFlags, type CtsApiClient } from "../api-client.ts";
import { formatCommandHelp, PROGRAM } from "../format-help.ts";
import { errorMessage } from "../../plugin-api/mod.ts";
import type { CliCommand } from "../command.ts";

export interface Ui {
  /** A headline: `==> text`. */
  info(text: string): void;
  /** Body text, every line indented 4 spaces. */
  output(text: string): void;
  /** `==> Error: text` on stderr. */
  error(text: string): void;
  /** CTS's prompt; true only for the exact answer `yes`. */
  approve(): Promise<boolean>;
}

const indent = (text: string): string => text.split("\n").map((line) => (line === "" ? "" : `    ${line}`)).join("\n");

export function ui(io: CliIo): Ui {
  return {
    info: (text) => io.out(`==> ${text}\n`),
    output: (text) => io.out(`${indent(text)}\n`),
    error: (text) => io.err(`==> Error: ${text}\n`),
    async approve() {
      io.out(`${indent("Only 'yes' will be accepted to approve, enter 'no' or leave blank to reject.")}\n\n`);
      const answer = await io.readLine("Enter a value: ");
      io.out("\n");
      return answer?.trim() === "yes";
    },
  };
}

/** The flag of the commands that ask before they change anything. */
export const autoApproveFlag: FlagSpec = { name: "auto-approve", type: "bool", default: false, help: "Skip interactive approval of inspect plan." };

/** CTS's warning before a plan is applied (meta.go terraformApprovalWarning). */
export function terraformApprovalWarning(name: string): string {
  return `Do you want to perform these actions for '${name}'?\n` +
    " - This action cannot be undone.\n" +
    " - Consul-Terraform-Sync cannot guarantee Terraform will perform\n" +
    "   these exact actions if monitored services have changed.\n";
}

/**
 * True when `-auto-approve` was given or the user answers `yes`; otherwise prints
 * `Cancelled <action> task '<name>'` and the command ends with 0 (declining is not an error).
 * `ask` prints the question (headline and details) before CTS's prompt.
 */
export async function approvedOrCancelled(
  args: ParsedArgs,
  ui: Ui,
  prompt: {
    readonly ask: () => void;
    readonly action: "creating" | "enabling" | "deleting" | "updating" | "destroying";
    readonly name: string;
  },
): Promise<boolean> {
  if (args.flags["auto-approve"] === true) return true;
  prompt.ask();
  if (await ui.approve()) return true;
  ui.output(`Cancelled ${prompt.action} task '${prompt.name}'`);
  return false;
}

/** What a step failed to do, for CTS's headline (`Error: unable to generate plan for 'web'`). */
export interface Step {
  failing: string | undefined;
}

/** A task command's body: gets the API client, the positional arguments, and the step it is in. */
export type TaskAction = (client: CtsApiClient, positionals: readonly string[], ui: Ui, step: Step) => Promise<number>;

/** CTS's `oneArgCheck`: exactly one positional (the task name), else exit 13 with its texts. */
function oneArgCheck(command: string, args: ParsedArgs, out: Ui): boolean {
  const given = args.positionals;
  if (given.length === 1) return true;
  out.error("this command requires one argument: [options] <task name>");
  if (given.length === 0) out.output("No arguments were passed to the command");
  else {
    out.output(`${given.length} arguments were passed to the command: '${given.join(", ")}'`);
    out.output("All flags are required to appear before positional arguments if set\n");
  }
  out.output(`For additional help try '${PROGRAM} ${command} --help'`);
  return false;
}

/**
 * Checks the positionals (13 when wrong), builds the client, runs `action`, and maps an API or
 * transport failure to exit 11: CTS's headline for the failed step on stderr, then the daemon's
 * answer indented on stdout in CTS's form (`404 Not Found: <message>, see logs ... (Request ID: x)`).
 * Unlike CTS the line is not word-wrapped at 78 columns, so scripts can match any phrase of it.
 */
export async function runTaskCommand(
  args: ParsedArgs,
  io: CliIo,
  command: string,
  positionals: 0 | 1,
  action: TaskAction,
): Promise<number> {
  const out = ui(io);
  if (positionals === 1 && !oneArgCheck(command, args, out)) return ExitCode.requiredFlagMissing;
  const name = args.positionals[0];
  const step: Step = { failing: name === undefined ? "unable to create client" : `unable to create client for '${name}'` };
  try {
    const client = await clientFromFlags(args, io);
    step.failing = undefined;
    return await action(client, args.positionals, out, step);
  } catch (error) {
    const message = error instanceof ApiRequestError ? error.ctsText() : errorMessage(error);
    if (step.failing === undefined) {
      out.error(message);
    } else {
      out.error(step.failing);
      out.output(message);
    }
    return ExitCode.runtimeError;
  }
}

/**
 * CTS's flag error for the task commands (meta.go setFlagsUsage): Go's flag line on stdout, the
 * arguments it refused on stderr, then the help on stdout; exit 14.
 */
export function taskFlagError(command: () => CliCommand): NonNullable<CliCommand["flagError"]> {
  return (message, args, io) => {
    io.out(`${message}\n`);
    io.err(`==> Error: unsupported arguments in flags '${args.join(", ")}'\n`);
    io.out(`${indent(`Please see --help information below for supported options:\n\n${formatCommandHelp(command())}`)}\n`);
    return ExitCode.flagParseError;
  };
}
