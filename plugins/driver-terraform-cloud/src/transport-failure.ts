/**
 * @module Why a request to HCP Terraform got no answer, said plainly: Go's words for TLS problems
 * (what CTS printed, and what runbooks search for) with what to change in the `tls` block, instead
 * of OpenSSL's internal text; the cause's code stays for the curious.
 */
import { errorMessage } from "../../../core/plugin-api/mod.ts";

const UNKNOWN_AUTHORITY = /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT|CERT_SIGNATURE_FAILURE|UnknownIssuer/;

/** [pattern over `code message`, Go's phrase and the advice]; the first match wins. */
const KNOWN: readonly [RegExp, string][] = [
  [/ERR_TLS_CERT_ALTNAME_INVALID|altnames|NotValidForName/i, "x509: certificate is not valid for this host name (connect with the name the certificate was issued for, or set tls { server_name })"],
  [UNKNOWN_AUTHORITY, "x509: certificate signed by unknown authority (give the CA with tls { ca_cert } or tls { ca_path })"],
  [/unable to verify|self[- ]signed|local issuer/i, "x509: certificate signed by unknown authority (give the CA with tls { ca_cert } or tls { ca_path })"],
  [/CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|expired/i, "x509: certificate has expired or is not yet valid"],
  [/wrong version number|packet length too long|InvalidContentType|corrupt message/i, "http: server gave HTTP response to HTTPS client (the server speaks plain HTTP: use an http:// hostname)"],
  [/certificate required|alert number 116|bad certificate/i, "remote error: tls: certificate required (the server wants a client certificate: set tls { cert, key })"],
  [/ECONNREFUSED|connection refused/i, "connection refused"],
  [/ENOTFOUND|EAI_AGAIN|failed to lookup/i, "no such host"],
  [/ECONNRESET|socket hang up|connection reset/i, "connection reset by peer"],
  [/ETIMEDOUT|no answer from/i, "i/o timeout"],
];

export function transportFailureText(error: unknown): string {
  const code = String((error as { code?: unknown })?.code ?? "");
  const message = errorMessage(error);
  const text = `${code} ${message}`;
  const known = KNOWN.find(([pattern]) => pattern.test(text));
  if (!known) return message;
  // OpenSSL's own lines (`...:error:0A00010B:SSL routines:...`) say nothing to an operator.
  const detail = /error:[0-9A-F]{8}:|routines:/i.test(message) ? "" : message.length > 0 && !known[1].startsWith(message) ? `: ${message}` : "";
  return `${known[1]}${code !== "" ? ` [${code}]` : ""}${detail}`;
}

/** A certificate problem does not fix itself: retrying it only delays the error. */
export function isPermanentTransportFailure(error: unknown): boolean {
  const code = String((error as { code?: unknown })?.code ?? "");
  return /CERT|SELF_SIGNED|TLS|SSL|ERR_INVALID_URL|EPROTO/.test(code) || /certificate|wrong version number/i.test(errorMessage(error));
}
