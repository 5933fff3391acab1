/**
 * @module A small PAN-OS-XML-API-compatible responder for tests, over HTTPS with a self-signed
 * certificate (as firewalls have): it answers the calls a commit needs as PAN-OS documents them —
 * `type=keygen` (user and password → key), `type=commit` (a job id, or "no changes"), and
 * `type=op` `<show><jobs><id>N</id></jobs></show>` (ACT, then FIN with OK or FAIL) — refuses a
 * request without the key, and records every request it was sent.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PanosRequest {
  readonly fields: Readonly<Record<string, string>>;
}

export interface PanosApiServerOptions {
  readonly username: string;
  readonly password: string;
  /**
   * Nothing to commit: a superuser admin gets job 0 ("There are no changes to commit."), a custom-role
   * admin the answer CTS treats as the same (status success, code 13).
   */
  readonly nothingToCommit?: "superuser" | "custom-role";
  /** This many commit jobs end in FAIL before one succeeds. */
  readonly failingJobs?: number;
}

export interface PanosApiServer {
  readonly hostname: string;
  readonly port: number;
  readonly apiKey: string;
  readonly requests: PanosRequest[];
  /** The `cmd` of each `type=commit` request. */
  commits(): string[];
  close(): Promise<void>;
}

const xml = (body: string) => `<response ${body}</response>`;
const invalidCredential = xml(`status="error" code="403"><result><msg>Invalid Credential</msg></result>`);

export async function startPanosApiServer(options: PanosApiServerOptions): Promise<PanosApiServer> {
  const dir = mkdtempSync(join(tmpdir(), "panos-api-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", "key.pem", "-out", "cert.pem", "-days", "1", "-subj", "/CN=panos.test"], { cwd: dir, stdio: "ignore" });
  const apiKey = "LUFRPT1test-key==";
  const requests: PanosRequest[] = [];
  /** Job id → how many status reads it has had, and whether it fails. */
  const jobs = new Map<number, { reads: number; fails: boolean }>();
  let failuresLeft = options.failingJobs ?? 0;

  const answer = (fields: Record<string, string>): string => {
    if (fields.type === "keygen") {
      return fields.user === options.username && fields.password === options.password
        ? xml(`status="success"><result><key>${apiKey}</key></result>`)
        : invalidCredential;
    }
    if (fields.key !== apiKey) return invalidCredential;
    if (fields.type === "commit") {
      if (!/^<commit>.*<\/commit>$/s.test(fields.cmd ?? "")) return xml(`status="error" code="17"><msg><line>Invalid command</line></msg>`);
      if (options.nothingToCommit === "superuser") return xml(`status="success" code="19"><msg>There are no changes to commit.</msg>`);
      if (options.nothingToCommit === "custom-role") return xml(`status="success" code="13"><msg><line>No changes to commit</line></msg>`);
      const id = jobs.size + 1;
      jobs.set(id, { reads: 0, fails: failuresLeft-- > 0 });
      return xml(`status="success" code="19"><result><msg><line>Commit job enqueued with jobid ${id}</line></msg><job>${id}</job></result>`);
    }
    const jobId = /^<show><jobs><id>(\d+)<\/id><\/jobs><\/show>$/.exec(fields.cmd ?? "")?.[1];
    if (fields.type === "op" && jobId !== undefined) {
      const job = jobs.get(Number(jobId));
      if (!job) return xml(`status="error" code="7"><msg><line>job ${jobId} not found</line></msg>`);
      // The first read finds the job running, the next one finished.
      const done = job.reads++ > 0;
      const result = !done ? "PEND" : job.fails ? "FAIL" : "OK";
      const details = job.fails ? "<line>Validation Error: rule is invalid</line><line>Commit failed</line>" : "<line>Configuration committed successfully</line>";
      return xml(`status="success"><result><job><id>${jobId}</id><type>Commit</type><status>${done ? "FIN" : "ACT"}</status>` +
        `<result>${result}</result><progress>${done ? 100 : 55}</progress>${done ? `<details>${details}</details>` : ""}</job></result>`);
    }
    return xml(`status="error" code="1"><msg><line>Unknown command</line></msg>`);
  };

  const server: Server = createServer({ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }, (req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://panos");
      const fields = Object.fromEntries([...url.searchParams, ...new URLSearchParams(body)]);
      requests.push({ fields });
      res.writeHead(url.pathname === "/api" || url.pathname === "/api/" ? 200 : 404, { "content-type": "application/xml; charset=UTF-8" });
      res.end(answer(fields));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    hostname: "127.0.0.1",
    port: (server.address() as AddressInfo).port,
    apiKey,
    requests,
    commits: () => requests.filter((request) => request.fields.type === "commit").map((request) => request.fields.cmd ?? ""),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      });
    }),
  };
}
