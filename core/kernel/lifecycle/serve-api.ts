/**
 * @module The daemon's API server: the kernel's router, shedding load while file descriptors run
 * short, and logging shortage episodes once each (descriptor-episodes.ts) until it is closed.
 */
import type { Logger } from "../../plugin-api/mod.ts";
import { serveHttp, type HttpServerHandle, type ServeHttpTls } from "../../runtime/serve-http.ts";
import { logDescriptorEpisodes } from "../descriptor-episodes.ts";

export interface ApiListen {
  readonly hostname: string;
  readonly port: number;
  readonly tls?: ServeHttpTls;
}

export async function serveApi(fetch: (request: Request) => Promise<Response> | Response, listen: ApiListen, log: Logger): Promise<HttpServerHandle> {
  const episodes = logDescriptorEpisodes(log);
  let server: HttpServerHandle;
  try {
    server = await serveHttp({
      fetch, hostname: listen.hostname, port: listen.port, ...(listen.tls ? { tls: listen.tls } : {}),
      // Consul's health check of this instance keeps passing: failing it would hand HA leadership over.
      shedLoad: { keepServing: (pathname) => pathname === "/v1/health" },
      // No API body is large: one still arriving after this is a slow sender holding a descriptor.
      requestTimeoutMs: 30_000,
      onServerError: episodes.onServerError,
    });
  } catch (error) {
    episodes.stop();
    throw error;
  }
  return {
    port: server.port,
    url: server.url,
    close: () => {
      episodes.stop();
      return server.close();
    },
  };
}
