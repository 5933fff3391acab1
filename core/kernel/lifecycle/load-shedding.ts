/**
 * @module The daemon's API server sheds load while file descriptors run short: `serveShedding` is
 * `serveHttp` with new requests answered 503 then (`/v1/health` excepted: failing Consul's check of
 * this instance would hand HA leadership over), accept failures heard, and shortage episodes logged
 * once each (descriptor-episodes.ts) until the server is closed.
 */
import type { Logger } from "../../plugin-api/mod.ts";
import { type HttpServerHandle, serveHttp, type ServeHttpOptions } from "../../runtime/serve-http.ts";
import { logDescriptorEpisodes } from "../descriptor-episodes.ts";

export async function serveShedding(options: ServeHttpOptions, log: Logger): Promise<HttpServerHandle> {
  const episodes = logDescriptorEpisodes(log);
  let server: HttpServerHandle;
  try {
    server = await serveHttp({
      ...options,
      shedLoad: { keepServing: (pathname) => pathname === "/v1/health" },
      onError: (error) => {
        episodes.onServerError(error);
        options.onError?.(error);
      },
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
