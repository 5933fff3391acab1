/**
 * @module A tiny real HTTP server for the client's error paths (429, 500, 403, hangs): a real peer
 * that answers what each test scripts, recording every request it saw.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage["headers"];
}

export interface ScriptedServer {
  readonly address: string;
  readonly requests: SeenRequest[];
  /** Resolves when a request's connection closes before it was answered (client cancelled). */
  readonly abandoned: Promise<SeenRequest>;
  close(): Promise<void>;
}

export type Script = (request: SeenRequest, response: ServerResponse, count: number) => void;

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  let markAbandoned!: (request: SeenRequest) => void;
  const abandoned = new Promise<SeenRequest>((resolve) => (markAbandoned = resolve));
  const server = createServer((req, res) => {
    const seen = { method: req.method ?? "GET", url: new URL(req.url ?? "/", "http://x"), headers: req.headers };
    requests.push(seen);
    res.on("close", () => {
      if (!res.writableEnded) markAbandoned(seen);
    });
    script(seen, res, requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    requests,
    abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function answer(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  const type = status >= 400 ? "text/plain; charset=utf-8" : "application/json";
  res.writeHead(status, { "content-type": type, ...headers });
  res.end(body);
}
