/**
 * core/runtime/serve-http.ts on Deno, with both of its servers in one process: a server with a
 * request bound (@hono/node-server) replaces the global Response, which its own request handling
 * needs (left alone, a DELETE through it fails: test/e2e/api-curl.test.ts), so every Deno.serve
 * server of the process must copy such answers into Deno's own class, or Deno refuses them
 * (`cts-runtime dev` on Deno died at the embedded Consul's first answer after the daemon's API started).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../../../harness/run-cli.ts";

it("serves a bounded and an unbounded server side by side on Deno", async () => {
  const deno = path.join(repoRoot, "node_modules", ".bin", "deno");
  const script = path.join(repoRoot, "test", "fixtures", "serve-http-deno", "two-servers.ts");
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(deno, ["run", "-A", "-q", script], { cwd: repoRoot, env: { ...process.env, NO_COLOR: "1" } }, (error, out, err) => {
      resolve({ code: error ? Number(error.code) : 0, stdout: out, stderr: err });
    });
  });
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.parse(stdout)).toEqual(["200 bounded", "200 unbounded"]);
});
