/**
 * @module The name the CLI was started under, for its help and messages. Installed or linked as
 * `consul-terraform-sync` (the package's second bin, for scripts written for CTS) it calls itself
 * that, as CTS does; otherwise `cts-runtime`. Only the file name counts: `main.js`/`main.ts` are ours.
 */
import process from "node:process";

export const CTS_PROGRAM = "consul-terraform-sync";

export function invokedProgramName(): string {
  const script = process.argv[1] ?? "";
  const base = script.split(/[\\/]/).pop()!.replace(/\.(m?js|ts)$/, "");
  return base === CTS_PROGRAM ? CTS_PROGRAM : "cts-runtime";
}
