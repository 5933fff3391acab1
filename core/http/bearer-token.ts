/**
 * @module The API token (beyond CTS): `Authorization: Bearer <token>`, compared in constant time
 * (both sides hashed first, so neither the length nor a common prefix shows in the timing).
 */

const utf8 = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", utf8.encode(text)));
}

export class BearerToken {
  readonly #expected: Promise<Uint8Array>;

  constructor(token: string) {
    this.#expected = digest(token);
  }

  /** Why `request` is not authorized, or undefined when it carries the token. */
  async refusal(request: Request): Promise<string | undefined> {
    const header = request.headers.get("authorization");
    const match = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      return `Cannot authorize ${request.method} ${new URL(request.url).pathname}: the API needs a token; send ` +
        `"Authorization: Bearer <token>" (the CLI sends -token or CTS_TOKEN)`;
    }
    const [given, expected] = await Promise.all([digest(match[1]!), this.#expected]);
    let difference = 0;
    for (let i = 0; i < expected.length; i++) difference |= expected[i]! ^ given[i]!;
    return difference === 0 ? undefined : `Cannot authorize ${request.method} ${new URL(request.url).pathname}: the API token is not valid`;
  }
}
