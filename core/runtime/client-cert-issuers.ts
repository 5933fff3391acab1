/**
 * @module Client-certificate check for mTLS on Node, where OpenSSL looks a client certificate's issuer
 * up by subject name only and, among several trusted CAs of one name (a renewed CA, two teams' CAs
 * both called "Client CA") without key identifiers to tell them apart, tries just one: certificates
 * of the others fail with a signature error. CTS (Go's crypto/x509) tries every candidate, so this
 * re-checks exactly that failure against each trusted CA: issuer name and key identifiers, the
 * signature, both certificates' validity, the CA flag, and client-auth usage (Node lets OpenSSL go
 * on after an error and reports the last one, so an earlier purpose error may hide behind it).
 * Every other verdict stays OpenSSL's; chains through intermediates are not re-checked. The server
 * lets a refused handshake go on to this re-check only when the trusted CAs share a subject.
 */
import { X509Certificate } from "node:crypto";
import type { TLSSocket } from "node:tls";

/** The certificates of a PEM bundle; blocks that do not parse are skipped (the TLS layer reports them). */
export function pemCertificates(bundle: string): X509Certificate[] {
  const blocks = bundle.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  return blocks.flatMap((block) => {
    try {
      return [new X509Certificate(block)];
    } catch {
      return [];
    }
  });
}

/** Whether two of `cas` have one subject: the case OpenSSL's issuer lookup gets wrong without key identifiers. */
export function sharesSubject(cas: readonly X509Certificate[]): boolean {
  const subjects = cas.filter((ca) => ca.ca).map((ca) => ca.subject);
  return new Set(subjects).size < subjects.length;
}

/** Whether the TLS peer may go on: OpenSSL authorized it, or it was only refused for a CA of the wrong key. */
export function clientCertificateAccepted(socket: TLSSocket, cas: readonly X509Certificate[], now = Date.now()): boolean {
  if (socket.authorized) return true;
  if (String(socket.authorizationError) !== "CERT_SIGNATURE_FAILURE") return false;
  const leaf = socket.getPeerX509Certificate();
  if (leaf === undefined || !validAt(leaf, now) || !forClients(leaf)) return false;
  return cas.some((ca) =>
    ca.ca && validAt(ca, now) && forClients(ca) && leaf.checkIssued(ca) && leaf.verify(ca.publicKey)
  );
}

const CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
const ANY_USAGE = "2.5.29.37.0";

/** As Go's verifier for client certificates: no extended key usage, or one allowing client auth. */
function forClients(certificate: X509Certificate): boolean {
  // Node 20 names the extended key usages `keyUsage` (later versions add `extKeyUsage`).
  const usages = (certificate as { extKeyUsage?: string[] }).extKeyUsage ?? certificate.keyUsage;
  return usages === undefined || usages.length === 0 || usages.includes(CLIENT_AUTH) || usages.includes(ANY_USAGE);
}

function validAt(certificate: X509Certificate, now: number): boolean {
  return Date.parse(certificate.validFrom) <= now && now <= Date.parse(certificate.validTo);
}
