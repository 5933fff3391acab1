"""Conformance script for Debian's python3-consul 0.7.1 against the dev server.

Run by python-consul.test.ts with /usr/bin/python3 and the server port as argv[1].
Prints one "ok <step>" line per passed step; any failure raises (non-zero exit).
"""
import sys
import threading
import time

import consul

c = consul.Consul(host="127.0.0.1", port=int(sys.argv[1]))


def ok(step):
    print("ok", step, flush=True)


# KV with check-and-set (python sends cas= and reads X-Consul-Index even on 404)
index, missing = c.kv.get("py/missing")
assert missing is None and int(index) >= 1, (index, missing)
assert c.kv.put("py/a", "1", cas=0) is True
assert c.kv.put("py/a", "2", cas=0) is False
index, entry = c.kv.get("py/a")
assert entry["Value"] == b"1", entry
assert c.kv.put("py/a", "3", cas=entry["ModifyIndex"]) is True
assert c.kv.put("py/a", "4", cas=entry["ModifyIndex"]) is False
index, keys = c.kv.get("py/", keys=True)
assert keys == ["py/a"], keys
ok("kv-cas")

# Sessions (lower-case JSON keys, lockdelay as "<n>s") and locks
sid = c.session.create(name="py-lock", ttl=10, lock_delay=0)
other = c.session.create(name="py-other", behavior="delete")
assert c.kv.put("py/lock", "held", acquire=sid) is True
assert c.kv.put("py/lock", "stolen", acquire=other) is False
index, info = c.session.info(sid)
assert info["Name"] == "py-lock" and info["TTL"] == "10s" and info["LockDelay"] == 0, info
index, sessions = c.session.list()
assert {s["ID"] for s in sessions} >= {sid, other}
assert c.session.renew(sid)["ID"] == sid
assert c.kv.put("py/lock", "released", release=sid) is True
assert c.kv.put("py/ephemeral", "x", acquire=other) is True
assert c.session.destroy(other) is True
assert c.kv.get("py/ephemeral")[1] is None
assert c.session.destroy(sid) is True
ok("sessions")

# Blocking KV get: a thread blocks on the index while the main thread writes
index, entry = c.kv.get("py/a")
result = {}


def blocker():
    result["value"] = c.kv.get("py/a", index=index, wait="20s")


thread = threading.Thread(target=blocker)
thread.start()
time.sleep(0.2)
c.kv.put("py/a", "changed")
thread.join(25)
new_index, changed = result["value"]
assert changed["Value"] == b"changed", changed
assert int(new_index) > int(index), (new_index, index)
ok("blocking-kv")

# Health: an agent service whose HTTP check the server really polls (against its own leader endpoint)
port = int(sys.argv[1])
c.agent.service.register("py-web", service_id="py-web-1", port=9000, tags=["blue"],
                         check=consul.Check.http("http://127.0.0.1:%d/v1/status/leader" % port, "1s"))
index, nodes = c.health.service("py-web", passing=True)
deadline = time.time() + 20
while not nodes and time.time() < deadline:
    index, nodes = c.health.service("py-web", passing=True, index=index, wait="5s")
assert len(nodes) == 1 and nodes[0]["Service"]["ID"] == "py-web-1", nodes
checks = {ch["CheckID"]: ch for ch in nodes[0]["Checks"]}
assert checks["service:py-web-1"]["Status"] == "passing", checks
assert checks["service:py-web-1"]["Type"] == "http", checks
index, tagged = c.health.service("py-web", tag="blue")
assert len(tagged) == 1
# 0.7.1 sends GET to /agent/check/pass; Consul 1.x (and this server) only accept PUT there.
assert c.agent.check.ttl_pass("service:py-web-1") is False
assert c.agent.service.deregister("py-web-1") is False  # also a GET in 0.7.1
assert c.http.put(consul.base.CB.bool(), "/v1/agent/service/deregister/py-web-1") is True
index, nodes = c.health.service("py-web")
assert nodes == []
ok("health")
