/** @module `cts-runtime version` (also `-v`, `-version`, `--version` before the command word, as CTS). */
import { ExitCode, type CliCommand } from "../command.ts";
import { CTS_VERSION, TERRAFORM_CONSTRAINT, VERSION } from "../../version.ts";

const versionCommand: CliCommand = {
  name: "version",
  summary: "Prints the version",
  usage: "Prints the version of cts-runtime and the Terraform versions it works with.",
  flags: [],
  run(_args, io) {
    // CTS prints `consul-terraform-sync <version>` then the Terraform line; the third line names
    // what we replace, so scripts looking for "consul-terraform-sync" in the output still find it.
    io.out(`cts-runtime v${VERSION}\nCompatible with Terraform ${TERRAFORM_CONSTRAINT}\n` +
      `Drop-in replacement for consul-terraform-sync ${CTS_VERSION}\n`);
    return Promise.resolve(ExitCode.ok);
  },
};

export default versionCommand;
