/** core/runtime/serve-http.ts on Node: plain HTTP, TLS, mTLS, and close() ending parked requests. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../../core/runtime/serve-http.ts";

const dir = mkdtempSync(join(tmpdir(), "serve-http-"));
const pem: Record<string, string> = {};

function openssl(...args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
}

beforeAll(() => {
  openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "1", "-subj", "/CN=test-ca");
  writeFileSync(join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1\n");
  for (const name of ["server", "client"]) {
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`);
    openssl("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
      "-out", `${name}.crt`, "-days", "1", "-extfile", "san.ext");
  }
  for (const file of ["ca.crt", "server.crt", "server.key", "client.crt", "client.key"]) {
    pem[file] = readFileSync(join(dir, file), "utf8");
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function get(url: string, options: { ca: string; cert?: string; key?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ...options, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve(`${res.statusCode} ${body}`));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serveHttp", () => {
  it("serves plain HTTP on a random port of 127.0.0.1", async () => {
    const server = await serveHttp({ fetch: (req) => new Response(new URL(req.url).pathname) });
    try {
      expect(server.port).toBeGreaterThan(0);
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect(await (await fetch(`${server.url}/hello`)).text()).toBe("/hello");
    } finally {
      await server.close();
    }
  });

  it("close() answers parked long-polls at once and is idempotent", async () => {
    let parked = 0;
    const server = await serveHttp({
      fetch: () => {
        parked++;
        return new Promise<Response>(() => undefined);
      },
    });
    const pending = fetch(`${server.url}/poll`).then((r) => r.status, () => "closed");
    while (parked === 0) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([server.close(), server.close()]);
    expect([503, "closed"]).toContain(await pending);
  });

  it("serves TLS and, with requestCert, only to clients with a certificate from the CA", async () => {
    const server = await serveHttp({
      fetch: () => new Response("secure"),
      tls: { cert: pem["server.crt"]!, key: pem["server.key"]!, ca: pem["ca.crt"]!, requestCert: true },
    });
    try {
      expect(server.url).toBe(`https://127.0.0.1:${server.port}`);
      expect(await get(server.url, { ca: pem["ca.crt"]!, cert: pem["client.crt"]!, key: pem["client.key"]! }))
        .toBe("200 secure");
      await expect(get(server.url, { ca: pem["ca.crt"]! })).rejects.toThrow();
    } finally {
      await server.close();
    }
    const plainTls = await serveHttp({ fetch: () => new Response("tls"), tls: { cert: pem["server.crt"]!, key: pem["server.key"]! } });
    try {
      expect(await get(plainTls.url, { ca: pem["ca.crt"]! })).toBe("200 tls");
    } finally {
      await plainTls.close();
    }
  });
});

describe("serveHttp's request deadline (beyond CTS's lifted timeouts)", () => {
  it("closes a request whose body does not arrive in time with 408, and never cuts a long answer", async () => {
    const { connect } = await import("node:net");
    // A long-poll: the answer comes after the deadline, as the embedded Consul's blocking queries do.
    const server = await serveHttp({
      requestTimeoutMs: 1_000,
      fetch: async (req) => {
        const body = await req.text();
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        return new Response(`waited for ${body.length}`);
      },
    });
    try {
      const slow = await new Promise<string>((resolve) => {
        const socket = connect(server.port, "127.0.0.1", () => {
          socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n");
          const trickle = setInterval(() => socket.write("a"), 200);
          let answer = "";
          socket.on("data", (chunk) => (answer += chunk));
          socket.on("close", () => {
            clearInterval(trickle);
            resolve(answer);
          });
        });
        socket.on("error", () => {});
      });
      expect(slow).toMatch(/^HTTP\/1\.1 408 /);
      const long = await fetch(`${server.url}/`, { method: "POST", body: "whole" });
      expect(await long.text()).toBe("waited for 5");
    } finally {
      await server.close();
    }
  }, 30_000);
});
