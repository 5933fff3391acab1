/** @module The kernel's HTTP server: plugins mount fetch handlers under a path prefix. */

/** A web-standard handler; a Hono app's `fetch` fits. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Runs before routing; returning a Response short-circuits (HA followers redirect with it). */
export type RequestInterceptor = (request: Request) => Response | undefined | Promise<Response | undefined>;

export interface HttpRouter {
  /** Routes requests whose path starts with `prefix` (e.g. `/v1`) to `handler`. */
  mount(prefix: string, handler: FetchHandler): void;
  /** Adds an interceptor that sees every request first. */
  intercept(interceptor: RequestInterceptor): void;
  /** The address the server listens on once started, e.g. `http://127.0.0.1:8558`. */
  readonly url: string | undefined;
}
