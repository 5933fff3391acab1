/**
 * `cts-runtime consul-dev`: flags, banner, serving, and a clean stop on a shutdown signal.
 * @integration: the command serves HTTP in-process (the CLI's commands are not followed by the tiers).
 */
import { expect, it } from "vitest";
import type { CliIo } from "../../../core/runtime/cli-io.ts";
import { parseFlags } from "../../../core/cli/parse-flags.ts";
import { commandContext } from "../../../core/cli/command-context.ts";
import command from "../../../dev-servers/consul/command.ts";
import { until } from "./http-client.ts";

function io(): CliIo & { output: string[]; errors: string[] } {
  const output: string[] = [];
  const errors: string[] = [];
  return {
    output, errors, env: {}, cwd: process.cwd(),
    out: (text) => output.push(text), err: (text) => errors.push(text),
    readLine: () => Promise.resolve(undefined),
  };
}

it("serves until SIGINT and exits 0", async () => {
  const cli = io();
  const args = parseFlags(["-http-addr=127.0.0.1:0", "-node=cmd-node", "-datacenter=dc7"], command.flags);
  const exit = command.run(args, commandContext(cli));
  await until(() => cli.output.join("").includes("HTTP: "));
  const url = /HTTP: (\S+)/.exec(cli.output.join(""))![1]!;
  expect(await (await fetch(`${url}/v1/status/leader`)).json()).toMatch(/:8300$/);
  const self = await (await fetch(`${url}/v1/agent/self`)).json() as { Config: { NodeName: string; Datacenter: string } };
  expect(self.Config).toMatchObject({ NodeName: "cmd-node", Datacenter: "dc7" });
  process.emit("SIGINT");
  expect(await exit).toBe(0);
  await expect(fetch(`${url}/v1/status/leader`)).rejects.toThrow();
});

it("refuses a malformed -http-addr", async () => {
  const cli = io();
  expect(await command.run(parseFlags(["-http-addr=nope"], command.flags), commandContext(cli))).toBe(14);
  expect(cli.errors.join("")).toMatch(/invalid -http-addr/);
});
