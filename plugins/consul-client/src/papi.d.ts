/**
 * @module The part of papi's API this plugin uses (papi ships no types): a `Client` to subclass,
 * whose `_request` sends one request (papi's README, "client._request").
 */
declare module "papi" {
  export interface PapiResponse {
    statusCode: number;
    headers: Readonly<Record<string, string | string[] | undefined>>;
    body?: Uint8Array | string;
  }

  export interface ClientOptions {
    /** No trailing slash. */
    baseUrl: string;
    /** A node http(s).Agent; papi's default is the global agent. */
    agent?: unknown;
    headers?: Readonly<Record<string, string>>;
    /** Prefixes error messages: `<name>: <message>`. */
    name?: string;
  }

  export class Client {
    constructor(options: ClientOptions);
    /** Sends one request (method, path, params, query, body, type, ctx, timeout, buffer). */
    protected _request(request: Record<string, unknown>): Promise<PapiResponse>;
  }
}
