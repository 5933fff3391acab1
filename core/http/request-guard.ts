/**
 * @module The doors every request passes before any plugin sees it (beyond CTS): the `Host` on a
 * loopback listener (DNS rebinding), CORS preflights, browser writes from other origins, and the
 * API token. Each refusal is CTS's JSON error shape with a sentence saying why and what allows it.
 */
import { BearerToken } from "./bearer-token.ts";
import { hostRefusal, isLoopbackAddress } from "./host-policy.ts";
import { corsHeaders, crossOriginWriteRefusal, type OriginRules } from "./origin-policy.ts";

export interface DoorSettings extends OriginRules {
  /** The bearer token every non-public request needs; "" for none. */
  readonly token: string;
  /** The address the server listens on (`0.0.0.0`, `127.0.0.1`, ...). */
  readonly listenAddress: string;
}

/** Before `configure` (a kernel that serves no HTTP itself): CTS's open door. */
const OPEN: DoorSettings = { token: "", allowedOrigins: [], listenAddress: "0.0.0.0" };

export class RequestGuard {
  #settings: DoorSettings = OPEN;
  #token: BearerToken | undefined;

  configure(settings: DoorSettings): void {
    this.#settings = settings;
    this.#token = settings.token === "" ? undefined : new BearerToken(settings.token);
  }

  /** A refusal (or the answer to a CORS preflight), or undefined when the request may go on. */
  async check(request: Request, isPublic: boolean): Promise<Response | undefined> {
    const settings = this.#settings;
    if (isLoopbackAddress(settings.listenAddress)) {
      const refused = hostRefusal(request, settings.listenAddress, settings.allowedOrigins);
      if (refused) return refusal(403, refused);
    }
    // Preflights carry no credentials; the answer's CORS headers say what the page may send.
    if (request.method === "OPTIONS") return new Response(null, { status: 200 });
    const crossOrigin = crossOriginWriteRefusal(request, settings);
    if (crossOrigin) return refusal(403, crossOrigin);
    if (this.#token && !isPublic) {
      const unauthorized = await this.#token.refusal(request);
      if (unauthorized) return refusal(401, unauthorized, { "www-authenticate": 'Bearer realm="cts-runtime"' });
    }
    return undefined;
  }

  /** `response` with the CORS headers the allowlist grants `request` (none for most). */
  withCors(request: Request, response: Response): Response {
    const headers = corsHeaders(request, this.#settings);
    if (Object.keys(headers).length === 0) return response;
    const out = new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
    for (const [name, value] of Object.entries(headers)) out.headers.set(name, value);
    return out;
  }
}

/** CTS's error shape. */
function refusal(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { message } }, { status, headers });
}
