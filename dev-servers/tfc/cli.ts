/** @module The `tfc-dev` command this dev server contributes to the CLI (main.ts hands it in), loaded when it runs or help lists it. */
import type { CliCommandContribution } from "../../core/plugin-api/mod.ts";

export const tfcDevCommands: readonly CliCommandContribution[] = [
  { name: "tfc-dev", load: async () => (await import("./command.ts")).default },
];
