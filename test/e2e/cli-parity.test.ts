/**
 * `deno run -A main.ts <args>` and `npx cts-runtime <args>` (dist/main.js) must behave identically:
 * same output, same exit codes, same config results.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../../harness/run-cli.ts";

const referenceConfig = "examples/configs/cts-reference.hcl";

const cases: { name: string; args: string[]; code: number; stream: "stdout" | "stderr"; expect: RegExp; logs?: true }[] = [
  // CTS (command/cli.go): `Usage CLI: consul-terraform-sync <command> [-help] [options]`, then `Commands:`.
  { name: "general help", args: ["--help"], code: 0, stream: "stdout", expect: /^Usage CLI: cts-runtime <command> \[-help\] \[options\]\n/ },
  { name: "no arguments prints help and exits 13", args: [], code: 13, stream: "stderr", expect: /\nCommands:\n/ },
  { name: "start help", args: ["start", "-help"], code: 0, stream: "stdout", expect: /-config-file=<path>/ },
  // CTS: the version flag exists only before the command word (mitchellh/cli), so `start -version`
  // is an unknown flag of `start`, while `-once -version` (no command yet) prints the version.
  { name: "top-level version", args: ["-once", "-version"], code: 0, stream: "stdout", expect: /^cts-runtime v\d+\.\d+\.\d+\n/ },
  { name: "start -version is an unknown flag", args: ["start", "-version"], code: 14, stream: "stdout", expect: /^flag provided but not defined: -version\n/ },
  { name: "task enable -v is an unknown flag", args: ["task", "enable", "-v", "web"], code: 14, stream: "stdout", expect: /^flag provided but not defined: -v\n/ },
  { name: "start without config exits 13", args: ["start"], code: 13, stream: "stderr", expect: /-config-file or -config-dir/ },
  // CTS (command/start.go): `unable to start consul-terraform-sync` / `no config file provided`.
  { name: "start without config says so as CTS", args: ["start"], code: 13, stream: "stdout", expect: /^ {4}no config file provided\n {4}For additional help try 'cts-runtime start --help'\n$/ },
  // CTS (command/start.go): Go's flag error, then the help, on stdout.
  { name: "unknown flag exits 14", args: ["start", "-bogus"], code: 14, stream: "stdout", expect: /^flag provided but not defined: -bogus\nUsage: cts-runtime start \[-help\] \[options\]\n/ },
  { name: "missing config file exits 15", args: ["validate", "-config-file=does-not-exist.hcl"], code: 15, stream: "stderr", expect: /does-not-exist\.hcl/ },
  {
    name: "a missing terraform binary exits 16 before any task runs",
    args: ["start", "-once", "-config-file=test/fixtures/configs/exit-codes/missing-terraform.hcl"],
    code: 16,
    stream: "stderr",
    expect: /==> Error: .*Cannot find Terraform: .*set driver "terraform" \{ path = /,
    logs: true,
  },
  { name: "reference config validates", args: ["validate", `-config-file=${referenceConfig}`], code: 0, stream: "stdout", expect: /task/i },
];

describe("CLI on Node and Deno", () => {
  for (const testCase of cases) {
    it(`${testCase.name}: same result on both runtimes`, async () => {
      const [node, deno] = await Promise.all([runCli("node", testCase.args), runCli("deno", testCase.args)]);
      expect(node.code, node.stderr).toBe(testCase.code);
      expect(node[testCase.stream]).toMatch(testCase.expect);
      expect(deno.code, deno.stderr).toBe(node.code);
      expect(deno.stdout).toBe(node.stdout);
      // Log lines carry timestamps; where a case logs, both runtimes must still print the same message.
      if (testCase.logs) expect(deno[testCase.stream]).toMatch(testCase.expect);
      else expect(deno.stderr).toBe(node.stderr);
    });
  }
});
