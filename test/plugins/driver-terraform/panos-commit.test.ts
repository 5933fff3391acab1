/**
 * CTS's PAN-OS handler against a PAN-OS-API-compatible responder: nothing to commit (superuser job 0,
 * custom-role code 13) is success without a job; a failed commit job is tried again (CTS: 4 retries)
 * and the run fails with PAN-OS's own text once they are spent; a configured api_key skips keygen.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import type { ProviderConfig } from "../../../core/plugin-api/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { PanosCommit } from "../../../plugins/driver-terraform/src/panos/panos-commit.ts";
import { panosSettings } from "../../../plugins/driver-terraform/src/panos/panos-settings.ts";
import { PanosXmlApi } from "../../../plugins/driver-terraform/src/panos/panos-xml-api.ts";
import { type PanosApiServer, type PanosApiServerOptions, startPanosApiServer } from "../../helpers/panos-api-server.ts";
import { captureLogger } from "../../../harness/driver-terraform/capture-logger.ts";

const servers: PanosApiServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function commitAgainst(options: Partial<PanosApiServerOptions>, args: Record<string, unknown> = {}) {
  const server = await startPanosApiServer({ username: "cts-admin", password: "pw-1", ...options });
  servers.push(server);
  const provider: ProviderConfig = {
    id: "panos", name: "panos", task_env: {}, auto_commit: true,
    arguments: { hostname: server.hostname, port: server.port, username: "cts-admin", password: "pw-1", ...args },
  };
  const settings = await panosSettings(provider, {}, createFileSystem());
  const logger = captureLogger();
  const learnt: string[] = [];
  const commit = new PanosCommit({
    api: new PanosXmlApi(createHttpClientFactory().create({ tls: { verify: settings.verifyCertificate } }), settings, (key) => learnt.push(key)),
    username: settings.username, logger, retryWaitMs: () => 10,
  });
  const outcome = await commit.run(AbortSignal.timeout(30_000)).then(() => undefined, (error: unknown) => error as Error);
  return { server, logger, outcome, learnt, types: server.requests.map((request) => request.fields.type) };
}

describe.concurrent("PAN-OS commit", () => {
  it("nothing to commit for a superuser (job 0) is success without a job; the generated key is handed to the secret masker", async () => {
    const { outcome, types, learnt, server } = await commitAgainst({ nothingToCommit: "superuser" });
    expect(outcome).toBeUndefined();
    expect(types).toEqual(["keygen", "commit"]);
    expect(learnt).toEqual([server.apiKey]);
  });

  it("nothing to commit for a custom-role admin (code 13) is success too, as in CTS", async () => {
    const { outcome, types } = await commitAgainst({ nothingToCommit: "custom-role" });
    expect(outcome).toBeUndefined();
    expect(types).toEqual(["keygen", "commit"]);
  });

  it("a failed commit job is tried again and then succeeds", async () => {
    const { outcome, server, logger } = await commitAgainst({ failingJobs: 2 });
    expect(outcome).toBeUndefined();
    expect(server.commits()).toHaveLength(3);
    expect(logger.lines.filter((line) => line.level === "WARN").map((line) => line.fields?.attempt_number)).toEqual([2, 3]);
    expect(logger.lines.at(-1)).toMatchObject({ level: "INFO", message: "commit successful", fields: { job_id: 3 } });
  });

  it("after 4 retries the run fails with PAN-OS's text", async () => {
    const { outcome, server } = await commitAgainst({ failingJobs: 99 });
    expect(server.commits()).toHaveLength(5);
    expect(outcome?.message).toBe("Cannot commit on PAN-OS after 5 attempts: commit job 5 failed: " +
      "Validation Error: rule is invalid | Commit failed");
  });

  it("a configured api_key is used as is (no keygen); a wrong one fails with PAN-OS's text", async () => {
    const right = await commitAgainst({}, { password: "", api_key: "LUFRPT1test-key==" });
    expect(right.outcome).toBeUndefined();
    expect(right.types[0]).toBe("commit");
    const wrong = await commitAgainst({}, { password: "", api_key: "wrong-key" });
    expect(wrong.outcome?.message).toBe("Cannot commit on PAN-OS after 5 attempts: Invalid Credential");
    expect(wrong.outcome?.message).not.toContain("wrong-key");
  });
});
