/**
 * @module The webhook signature: `X-CTS-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `<t>.<raw body>`, keyed with the configured secret. Signing the timestamp with the body lets a
 * receiver refuse replays (a `t` older than its tolerance, e.g. five minutes); each attempt is
 * signed afresh, so a retry an hour later still verifies. Web Crypto, on Node and Deno alike.
 */

export const SIGNATURE_HEADER = "x-cts-signature";

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The header value for `body` sent at `nowMs`. */
export async function signatureHeader(secret: string, body: string, nowMs: number): Promise<string> {
  const timestamp = Math.floor(nowMs / 1000);
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`));
  return `t=${timestamp},v1=${hex(mac)}`;
}
