/**
 * @module Rendezvous (highest random weight) hashing: each task goes to the live member that scores
 * highest for it. Every instance computes the same answer from the same member list, and a member
 * joining or leaving moves only the tasks it wins or held (about tasks / members), never others.
 */

/** cyrb53: a fast, well-mixed 53-bit string hash (not cryptographic; spreading is all it is for). */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The member that should own `task` (ties, vanishingly rare, go to the lower id). */
export function rendezvousOwner(task: string, members: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const member of members) {
    const score = hash53(`${member}\u0000${task}`);
    if (score > bestScore || (score === bestScore && best !== undefined && member < best)) {
      best = member;
      bestScore = score;
    }
  }
  return best;
}
