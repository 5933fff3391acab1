/**
 * What CTS refuses when it loads its configuration, refused by the real CLI before anything starts
 * (`validate` and `start` load it alike), with CTS's sentences after ours: a provider's `task_env`
 * value that is not a string, an API `tls` block whose `cert` and `key` do not belong together, and
 * high availability with Terraform state in a `backend "local"` (CTS: error and exit).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { freePort } from "../../harness/free-port.ts";
import { runCli } from "../../harness/run-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "cts-config-refusals-"));
beforeAll(() => {
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
    "-subj", "/CN=localhost", "-keyout", "key.pem", "-out", "cert.pem"], { cwd: dir, stdio: "ignore" });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = `task {
  name      = "t"
  module    = "./m"
  providers = ["local"]
  condition "services" {
    names = ["web"]
  }
}
`;

/** [what, the command CTS refuses it in, the block, the problem printed]. */
const CASES = [
  ["a task_env value that is not a string", "validate", `terraform_provider "local" {\n  task_env {\n    "RETRIES" = 3\n  }\n}\n`,
    `: terraform_provider[0].local.task_env.RETRIES: must be a string, got number 3 (unexpected task_env block format: value for "RETRIES" should be a string)`],
  ["an API key pair given the wrong way round", "start", `tls {\n  enabled = true\n  cert    = "key.pem"\n  key     = "cert.pem"\n}\n`,
    `: tls.key: must be the private key of the certificate in tls.cert (key.pem), and it is not (tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched)`],
  ["high availability with a local backend", "start",
    `high_availability {\n  cluster {\n    name = "c"\n  }\n  instance {\n    address = "127.0.0.1"\n  }\n}\n` +
      `driver "terraform" {\n  backend "local" {\n    path = "t.tfstate"\n  }\n}\n`,
    `: driver.terraform.backend.local: cannot be used with high_availability: state must be shared`],
] as const;

test.concurrent.each(CASES)("%s is refused (%s) before anything starts, naming file and field", async (_, command, block, problem) => {
  const port = await freePort();
  const file = `cts-${port}.hcl`;
  writeFileSync(join(dir, file), `port = ${port}\n${block}terraform_provider "other" {\n}\n${task}`);
  const result = await runCli("node", [command, `-config-file=${file}`], { cwd: dir, env: {} });
  expect(result.code, result.stderr).toBe(15);
  expect(result.stderr).toContain(`${file}${problem}`);
  // Refused before anything started: nothing listens on the API port.
  expect(await fetch(`http://127.0.0.1:${port}/v1/health`).then(() => "answered", () => "refused")).toBe("refused");
}, 60_000);
