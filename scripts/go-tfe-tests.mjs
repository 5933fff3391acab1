#!/usr/bin/env node
// @ts-check
/**
 * Runs go-tfe's own integration tests (Debian's golang-github-hashicorp-go-tfe-dev, go-tfe 0.11.1)
 * against an HCP Terraform-compatible server: `TFE_ADDRESS=http://127.0.0.1:<port> TFE_TOKEN=<token>
 * node scripts/go-tfe-tests.mjs [--json]`. Start one with `cts-runtime tfc-dev -token=<token>`.
 *
 * The test binary is built once in GOPATH mode and cached under ~/.cache/cts-runtime (keyed by the
 * Go version and the go-tfe sources), so repeated runs start at once. Every test of the package is
 * either run (INCLUDED) or excluded with its reason (EXCLUDED); a test in neither list fails the run,
 * so a newer go-tfe cannot silently skip anything. Tests run in parallel shards (each creates its own
 * organizations). Prints a table, or with --json one JSON object: {passed, failed, excluded, seconds}.
 * Exits 1 if any included test did not pass.
 */
import { createHash } from "node:crypto";
import { homedir, tmpdir } from "node:os";
import { $, fs, path } from "zx";

$.verbose = false;

const GO_TFE = "/usr/share/gocode/src/github.com/hashicorp/go-tfe";
const SHARDS = 4;

/** Tests that exercise what this server implements; the heavier (run-creating) ones first, for shard balance. */
const INCLUDED = [
  "TestRunsCancel", "TestRunsForceCancel", "TestRunsList", "TestRunsCreate", "TestRunsRead", "TestRunsApply",
  "TestRunsDiscard", "TestAppliesRead", "TestAppliesLogs", "TestPlansRead", "TestPlansLogs", "TestCostEstimatesRead",
  "TestConfigurationVersionsUpload", "TestConfigurationVersionsList", "TestConfigurationVersionsCreate",
  "TestConfigurationVersionsRead",
  "TestOrganizationsList", "TestOrganizationsCreate", "TestOrganizationsRead", "TestOrganizationsUpdate",
  "TestOrganizationsDelete", "TestOrganizationsEntitlements",
  "TestWorkspacesList", "TestWorkspacesCreate", "TestWorkspacesRead", "TestWorkspacesReadByID", "TestWorkspacesUpdate",
  "TestWorkspacesUpdateByID", "TestWorkspacesDelete", "TestWorkspacesDeleteByID", "TestWorkspacesLock",
  "TestWorkspacesUnlock", "TestWorkspacesForceUnlock",
  "TestVariablesList", "TestVariablesCreate", "TestVariablesRead", "TestVariablesUpdate", "TestVariablesDelete",
  "TestStateVersionsList", "TestStateVersionsCreate", "TestStateVersionsRead", "TestStateVersionsReadWithOptions",
  "TestStateVersionsCurrent", "TestStateVersionsCurrentWithOptions", "TestStateVersionsDownload",
  "TestStateVersionOutputsRead",
  "TestAgentPoolsList", "TestAgentPoolsCreate", "TestAgentPoolsRead", "TestAgentPoolsUpdate", "TestAgentPoolsDelete",
];

/** @type {Record<string, string>} name or name prefix (ending in `*`) → why it is not run */
const EXCLUDED = {
  "TestClient_*": "client-side unit test against its own httptest server; it never talks to this server",
  "TestLogReader_*": "client-side unit test against its own httptest server; it never talks to this server",
  "TestOrganizationsCapacity": "skips itself unconditionally in 0.11.1 (\"Capacity queues are not available in the API\")",
  "TestOrganizationsRunQueue": "skips itself unconditionally in 0.11.1 (\"Capacity queues are not available in the API\")",
  "TestOrganizationMemberships*": "users, teams and memberships are not modelled: the server has one token with every permission",
  "TestOrganizationTokens*": "organization tokens are not modelled: the server has one token with every permission",
  "TestTeam*": "teams are not modelled: the server has one token with every permission",
  "TestUsers*": "user accounts are not modelled (only GET /account/details answers)",
  "TestPolicies*": "Sentinel policies are not supported: runs have no policy checks",
  "TestPolicySets*": "Sentinel policy sets are not supported: runs have no policy checks",
  "TestPolicySetParameters*": "Sentinel policy set parameters are not supported",
  "TestParametersDelete": "Sentinel policy set parameters are not supported",
  "TestPolicyChecks*": "Sentinel policies are not supported: runs have no policy checks",
  "TestPlanExports*": "plan exports (Sentinel mock bundles) are not supported",
  "TestNotificationConfiguration*": "notification configurations are not supported",
  "TestOAuthClients*": "VCS providers are not supported (the test also needs a GITHUB_TOKEN)",
  "TestOAuthTokens*": "VCS providers are not supported (the test also needs a GITHUB_TOKEN)",
  "TestWorkspacesRemoveVCSConnection*": "VCS connections are not supported (the test also needs a GITHUB_TOKEN)",
  "TestSSHKeys*": "SSH keys (for VCS module sources) are not supported",
  "TestWorkspacesAssignSSHKey": "SSH keys (for VCS module sources) are not supported",
  "TestWorkspacesUnassignSSHKey": "SSH keys (for VCS module sources) are not supported",
  "TestRegistryModules*": "the private module registry is not supported",
  "TestRunTrigger*": "run triggers are not supported",
};

const CONFIG_FIXTURE = `resource "terraform_data" "example" {
  input = "go-tfe"
}
`;

const STATE_FIXTURE = `${JSON.stringify({
  version: 4, terraform_version: "1.11.4", serial: 1, lineage: "b2b54b23-e7ea-5500-7b15-fcb68c1d92bb",
  outputs: { test_output: { value: "9023256633839603543", type: "string" } },
  resources: [{
    mode: "managed", type: "terraform_data", name: "example", provider: "provider[\"terraform.io/builtin/terraform\"]",
    instances: [{ schema_version: 0, attributes: { id: "3085d146-1070-7b18-3bca-c804e80c98ef", input: null, output: null, triggers_replace: null }, sensitive_attributes: [] }],
  }],
  check_results: null,
}, null, 2)}\n`;

/** @param {string} name */
function exclusionOf(name) {
  for (const [pattern, reason] of Object.entries(EXCLUDED)) {
    if (pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern) return reason;
  }
  return undefined;
}

/** The cached test binary, built when Go or the go-tfe sources changed. */
async function testBinary() {
  if (!(await fs.pathExists(path.join(GO_TFE, "tfe.go")))) throw new Error(`go-tfe sources not found in ${GO_TFE}: run scripts/setup-go-tfe.sh`);
  const goVersion = (await $`go version`).stdout.trim();
  const sources = (await fs.readdir(GO_TFE)).filter((file) => file.endsWith(".go")).sort();
  const hash = createHash("sha256").update(goVersion);
  for (const file of sources) hash.update(file).update(await fs.readFile(path.join(GO_TFE, file)));
  const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "cts-runtime", "go-tfe");
  const binary = path.join(cache, `go-tfe-${hash.digest("hex").slice(0, 16)}.test`);
  if (await fs.pathExists(binary)) return binary;
  await fs.mkdirp(cache);
  const partial = `${binary}.${process.pid}.tmp`;
  await $({
    env: { ...process.env, GO111MODULE: "off", GOFLAGS: "", GOPATH: `${path.join(cache, "gopath")}:/usr/share/gocode`, GOCACHE: path.join(cache, "gocache") },
  })`go test -c -o ${partial} github.com/hashicorp/go-tfe`;
  await fs.rename(partial, binary);
  return binary;
}

/**
 * @param {string} output `-test.v` output of one shard
 * @returns {Map<string, {status: string, output: string}>}
 */
function parseResults(output) {
  const results = new Map();
  const lines = output.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const match = /^--- (PASS|FAIL|SKIP): (\S+)/.exec(lines[i]);
    if (!match) continue;
    const body = [];
    for (let j = i + 1; j < lines.length && /^\s/.test(lines[j]); j++) body.push(lines[j]);
    results.set(match[2], { status: match[1], output: body.join("\n") });
  }
  return results;
}

const address = process.env.TFE_ADDRESS;
const token = process.env.TFE_TOKEN;
if (!address || !token) {
  console.error("Set TFE_ADDRESS and TFE_TOKEN (start a server with: cts-runtime tfc-dev -token=<token>)");
  process.exit(2);
}

const started = Date.now();
const binary = await testBinary();
const all = (await $`${binary} -test.list ^Test`).stdout.split("\n").filter((name) => name.startsWith("Test"));
const unknown = all.filter((name) => !INCLUDED.includes(name) && exclusionOf(name) === undefined);
const missing = INCLUDED.filter((name) => !all.includes(name));
if (unknown.length > 0 || missing.length > 0) {
  console.error(`go-tfe's tests changed: neither run nor excluded: ${unknown.join(", ") || "-"}; listed but absent: ${missing.join(", ") || "-"}`);
  process.exit(1);
}

const workDir = await fs.mkdtemp(path.join(tmpdir(), "go-tfe-tests-"));
await fs.outputFile(path.join(workDir, "test-fixtures", "config-version", "main.tf"), CONFIG_FIXTURE);
await fs.outputFile(path.join(workDir, "test-fixtures", "state-version", "terraform.tfstate"), STATE_FIXTURE);
/** @type {string[][]} */
const shards = Array.from({ length: SHARDS }, () => []);
INCLUDED.forEach((name, index) => shards[index % SHARDS].push(name));
const outputs = await Promise.all(shards.map((names) =>
  $({ cwd: workDir, nothrow: true, env: { ...process.env, TFE_ADDRESS: address, TFE_TOKEN: token } })`${binary} -test.v -test.timeout=10m -test.run ${`^(${names.join("|")})$`}`));
await fs.remove(workDir);

const results = new Map();
for (const output of outputs) for (const [name, result] of parseResults(output.stdout + output.stderr)) results.set(name, result);
const passed = INCLUDED.filter((name) => results.get(name)?.status === "PASS");
const failed = INCLUDED.filter((name) => results.get(name)?.status !== "PASS").map((name) => ({
  name,
  status: results.get(name)?.status ?? "NOT RUN",
  output: results.get(name)?.output ?? outputs.map((o) => o.stdout + o.stderr).join("\n").slice(-4000),
}));
const excluded = all.filter((name) => !INCLUDED.includes(name)).map((name) => ({ name, reason: exclusionOf(name) }));
const seconds = Math.round((Date.now() - started) / 100) / 10;

if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ passed, failed, excluded, seconds }));
} else {
  for (const name of passed) console.log(`PASS     ${name}`);
  for (const failure of failed) console.log(`${failure.status.padEnd(8)} ${failure.name}\n${failure.output}`);
  for (const exclusion of excluded) console.log(`EXCLUDED ${exclusion.name}: ${exclusion.reason}`);
  console.log(`${passed.length} passed, ${failed.length} failed, ${excluded.length} excluded (${seconds}s)`);
}
process.exit(failed.length === 0 ? 0 : 1);
