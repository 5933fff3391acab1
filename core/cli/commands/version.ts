/** @module `cts-runtime version` (also `-v`, `-version`, `--version` before the command word, as CTS). */
import { ExitCode, type CliCommand } from "../command.ts";
import { TERRAFORM_CONSTRAINT, VERSION } from "../../version.ts";

const versionCommand: CliCommand = {
  name: "version",
  summary: "Prints the version",
  usage: "Prints the version of cts-runtime and the Terraform versions it works with.",
  flags: [],
  run(_args, io) {
    io.out(`cts-runtime v${VERSION}\nCompatible with Terraform ${TERRAFORM_CONSTRAINT}\n`);
    return Promise.resolve(ExitCode.ok);
  },
};

export default versionCommand;
