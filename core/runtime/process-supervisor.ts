/**
 * @module The `sh` supervisor every child command runs under, so that no command (a `terraform apply`
 * holding the state lock, and the provisioners it started) outlives cts-runtime, however it dies.
 *
 * Linux's parent-death signal is out of reach from Node and Deno, and a SIGKILLed daemon runs no exit
 * hook. What the kernel does guarantee is that a dead process's file descriptors close. So the daemon
 * hands the supervisor one end of a pipe as fd 3 and never writes to it: end-of-file on fd 3 means the
 * daemon is gone. The supervisor is started in a session of its own (spawn `detached`), so the command
 * and everything it starts share the supervisor's process group, which can be killed as a whole.
 *
 * On end-of-file the watcher sends SIGTERM to the command (Terraform then stops its provisioners,
 * writes its state and releases the lock, in tens of milliseconds), and after the grace period SIGKILLs
 * the whole group, which also ends provisioner processes Terraform left behind.
 *
 * A clean stop is unchanged: SIGTERM/SIGINT sent to the supervisor are passed on to the command, and the
 * supervisor waits for it. The command's exit status is the supervisor's (128+N when killed by signal N).
 * The command gets the supervisor's stdin (fd 5 keeps it, since `&` would give it /dev/null) and never
 * sees fd 3 or fd 4. Arguments arrive as positional parameters, never as shell text.
 *
 * A signal must not reach the supervisor before its traps are set (it would die of it and leave the
 * command running unwatched), and the traps must not be set before the command is forked (a forked
 * shell keeps its parent's handlers until it execs, so a signal passed on in that moment is lost). So
 * the traps come right after the fork, and the supervisor closes fd 4 once they are set: the daemon
 * holds back its signal until that end-of-file. A command killed before it opened its FIFOs leaves
 * its relays waiting for a writer; the supervisor opens each FIFO left over once, which ends them.
 * The relays redirect with `exec`: dash keeps copies of the fds a function call's redirections
 * replace, and a relay holding fd 4 would hold the daemon's signal back until the command ends.
 *
 * The command's stdout and stderr reach the daemon through two relays (`cat` from a FIFO), not
 * directly: once the daemon is gone its pipes are broken, and Terraform (Go) dies of SIGPIPE on its
 * next write to stdout, which its "Interrupt received" message is, before releasing the lock. A relay
 * that can no longer write keeps draining into /dev/null, so Terraform's shutdown completes.
 */

/** Seconds between SIGTERM and SIGKILL once the daemon is gone. */
export const SUPERVISOR_GRACE_SECONDS = 1;

export const SUPERVISOR_SCRIPT = `fifos=$(mktemp -d) || exit 125
mkfifo "$fifos/out" "$fifos/err" || exit 125
relay() {
  exec <"$1" 3<&- 4>&-
  rm -f "$1"
  rmdir "$fifos" 2>/dev/null
  trap '' PIPE
  cat 2>/dev/null || exec cat >/dev/null
}
relay "$fifos/out" &
{ exec >&2; relay "$fifos/err"; } &
exec 5<&0
"$@" 0<&5 >"$fifos/out" 2>"$fifos/err" 3<&- 4>&- 5<&- &
child=$!
exec 5<&-
{
  while read -r _; do :; done
  trap '' TERM
  kill -s TERM "$child" 2>/dev/null
  sleep ${SUPERVISOR_GRACE_SECONDS}
  kill -s KILL -- "-$$" 2>/dev/null
} 0<&3 >/dev/null 2>&1 4>&- &
watcher=$!
exec 3<&-
trap 'kill -s TERM "$child" 2>/dev/null' TERM
trap 'kill -s INT "$child" 2>/dev/null' INT
exec 4>&-
while :; do
  wait "$child"
  status=$?
  kill -0 "$child" 2>/dev/null || break
done
kill -s TERM "$watcher" 2>/dev/null
for fifo in "$fifos/out" "$fifos/err"; do
  [ -p "$fifo" ] && true 5<>"$fifo" 2>/dev/null
done
[ -d "$fifos" ] && rm -rf "$fifos"
exit "$status"
`;

/** `$0` of the supervisor shell, so it is recognisable in `ps`. */
export const SUPERVISOR_NAME = "cts-runtime-supervisor";
