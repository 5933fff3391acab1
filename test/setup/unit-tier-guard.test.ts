/**
 * The unit tier's setup files (test/setup/no-processes-or-servers.ts, environment-unchanged.ts) in a
 * real vitest run over files that break their rules (test/fixtures/unit-tier/): starting a process
 * fails the test, also when the code caught the throw, and so do opening a listening socket and
 * leaving process.env changed; a pure file passes. This is what keeps a process or a server from slipping into `npm run test:unit`.
 * Beyond CTS.
 */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const fixtures = join(root, "test/fixtures/unit-tier");

interface Report {
  testResults: { name: string; status: string; message: string; assertionResults: { status: string; failureMessages: string[] }[] }[];
}

let results: Map<string, { status: string; messages: string }>;

beforeAll(async () => {
  const stdout = await new Promise<string>((done, fail) => {
    const args = [join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", join(fixtures, "vitest.config.ts"), "--reporter=json"];
    execFile(process.execPath, args, { cwd: root, maxBuffer: 16 << 20 }, (error, out, err) => {
      if (out.trim().startsWith("{")) done(out);
      else fail(new Error(`vitest wrote no report: ${error?.message}\n${err}`));
    });
  });
  const report = JSON.parse(stdout) as Report;
  results = new Map(report.testResults.map((file) => [file.name.replace(`${fixtures}/`, ""), {
    status: file.status,
    messages: [file.message, ...file.assertionResults.flatMap((test) => test.failureMessages)].join("\n"),
  }]));
}, 60_000);

describe("the unit tier's guard", () => {
  it("fails a test that starts a process, naming the command and the way out", () => {
    expect(results.get("spawns.fixture.ts")?.status).toBe("failed");
    expect(results.get("spawns.fixture.ts")?.messages).toContain("Cannot start a process (child_process.spawnSync true) in a unit test");
    expect(results.get("spawns.fixture.ts")?.messages).toContain(`Tag the file's header with "@integration"`);
  });

  it("fails it also when the code under test caught the throw", () => {
    expect(results.get("swallows.fixture.ts")?.status).toBe("failed");
    expect(results.get("swallows.fixture.ts")?.messages).toContain("Cannot start a process (child_process.execFile terraform)");
  });

  it("fails a test that opens a listening socket", () => {
    expect(results.get("listens.fixture.ts")?.status).toBe("failed");
    expect(results.get("listens.fixture.ts")?.messages).toContain("Cannot open a listening socket (net.Server.listen)");
  });

  it("fails a file that leaves process.env changed (files share their worker)", () => {
    expect(results.get("leaks-env.fixture.ts")?.status).toBe("failed");
    expect(results.get("leaks-env.fixture.ts")?.messages).toContain("Cannot leave process.env changed after a test file (CTS_UNIT_TIER_LEAK)");
  });

  it("passes a file that does none of these", () => {
    expect(results.get("pure.fixture.ts")?.status).toBe("passed");
  });
});
