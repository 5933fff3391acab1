/**
 * @module Why the CLI could not talk to the daemon. Node's and OpenSSL's words differ from Go's, and
 * CTS users' scripts (and CTS's own e2e tests) match Go's: "HTTP response to HTTPS client",
 * "sent an HTTP request to an HTTPS server", "signed by unknown authority", "certificate required".
 * The runtime's own message stays first; Go's phrase follows as the explanation.
 */
import { servesTls } from "../runtime/https-client.ts";

interface TransportError {
  readonly message?: string;
  readonly code?: string;
  /** Set by the runtime's client: the TLS handshake had completed when the connection failed. */
  readonly tlsHandshakeDone?: boolean;
}

const UNKNOWN_AUTHORITY = /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT|CERT_SIGNATURE_FAILURE/;
const UNKNOWN_AUTHORITY_TEXT = /unable to verify|self[- ]signed|local issuer|UnknownIssuer|unknown ca/i;
const NOT_CONNECTED = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|no answer from/;
const CLOSED = /ECONNRESET|EPIPE|socket hang up|connection closed|connection reset|unexpected end|UnexpectedEof/i;

/** The CLI's message for a request that got no HTTP answer from `address`. */
export async function transportFailureText(address: string, error: unknown, options: { readonly clientCert: boolean }): Promise<string> {
  const failure = (error ?? {}) as TransportError;
  const message = (failure.message ?? String(error)).trim();
  const text = `${failure.code ?? ""} ${message}`;
  const base = `Cannot reach the daemon at ${address}: ${message}`;
  const secure = address.startsWith("https:");
  if (secure && /wrong version number|InvalidContentType|corrupt message|packet length too long/i.test(text)) {
    return `${base} (http: server gave HTTP response to HTTPS client: the daemon serves plain HTTP, use an http:// address)`;
  }
  if (secure && (UNKNOWN_AUTHORITY.test(failure.code ?? "") || UNKNOWN_AUTHORITY_TEXT.test(text))) {
    return `${base} (x509: certificate signed by unknown authority: give the CA of the daemon's certificate with -ca-cert or -ca-path, or -ssl-verify=false)`;
  }
  if (secure && !options.clientCert && !/certificate required/i.test(text) && (failure.tlsHandshakeDone || CLOSED.test(text))) {
    return `${base} (remote error: tls: certificate required: the daemon verifies clients, give -client-cert and -client-key)`;
  }
  // Node's server hangs up on plain HTTP, Deno's answers with a TLS alert (a parse error here):
  // whatever the symptom, once connected, ask the port whether it speaks TLS.
  if (!secure && !NOT_CONNECTED.test(text) && await servesTls(address)) {
    return `${base} (Client sent an HTTP request to an HTTPS server: the daemon serves TLS, use an https:// address)`;
  }
  return secure ? base : `${base} (if the daemon serves TLS, use an https:// address)`;
}
