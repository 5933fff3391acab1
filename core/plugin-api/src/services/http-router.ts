/** @module The kernel's HTTP server: plugins mount fetch handlers under a path prefix. */

/** A web-standard handler; a Hono app's `fetch` fits. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Runs before routing; returning a Response short-circuits (HA followers redirect with it). */
export type RequestInterceptor = (request: Request) => Response | undefined | Promise<Response | undefined>;

/** How the kernel guards a mount's paths. */
export interface MountOptions {
  /**
   * Paths (full, e.g. `/v1/health`) answered without the API token: health checks and static files
   * that hold no data. Every other path needs the token when one is configured. @default none
   */
  readonly public?: (path: string) => boolean;
}

export interface HttpRouter {
  /**
   * Routes requests whose path starts with `prefix` (e.g. `/v1`) to `handler`. The kernel checks
   * every request first (the origin of browser writes, the Host on loopback, the API token) and
   * masks known secrets in JSON and text answers.
   */
  mount(prefix: string, handler: FetchHandler, options?: MountOptions): void;
  /** Adds an interceptor that sees every request first. */
  intercept(interceptor: RequestInterceptor): void;
  /** The address the server listens on once started, e.g. `http://127.0.0.1:8558`. */
  readonly url: string | undefined;
}
