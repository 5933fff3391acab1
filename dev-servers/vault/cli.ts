/** @module The `vault-dev` command this dev server contributes to the CLI (main.ts hands it in), loaded when it runs or help lists it. */
import type { CliCommandContribution } from "../../core/plugin-api/mod.ts";

export const vaultDevCommands: readonly CliCommandContribution[] = [
  { name: "vault-dev", load: async () => (await import("./command.ts")).default },
];
