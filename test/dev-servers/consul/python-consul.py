"""Conformance script for Debian's python3-consul 0.7.1 against the dev server.

Run by python-consul.test.ts with /usr/bin/python3 and the server port as argv[1].
Prints one "ok <step>" line per passed step; any failure raises (non-zero exit).
"""
import json
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

# Catalog nodes, as the nodes condition watches them: a blocking list that wakes when a node joins,
# node-meta and filter selecting on the node's fields (0.7.1's catalog.nodes sends neither, so they
# go through the client's own HTTP layer), and a deregistration that wakes it again.
def register_node(name, address, meta):
    body = json.dumps({"Node": name, "Address": address, "NodeMeta": meta,
                       "TaggedAddresses": {"lan": address, "wan": "198.51.100.1"}})
    assert c.http.put(consul.base.CB.bool(), "/v1/catalog/register", data=body) is True


index, before = c.catalog.nodes()
result = {}


def node_blocker():
    result["value"] = c.catalog.nodes(index=index, wait="20s")


thread = threading.Thread(target=node_blocker)
thread.start()
time.sleep(0.2)
register_node("py-node-a", "10.9.0.1", {"rack": "r1", "role": "edge"})
thread.join(25)
new_index, after = result["value"]
assert int(new_index) > int(index), (new_index, index)
added = [n for n in after if n["Node"] == "py-node-a"]
assert len(added) == 1 and len(after) == len(before) + 1, after
assert added[0]["Address"] == "10.9.0.1" and added[0]["Meta"] == {"rack": "r1", "role": "edge"}, added
assert added[0]["TaggedAddresses"]["wan"] == "198.51.100.1" and added[0]["Datacenter"], added
register_node("py-node-b", "10.9.0.2", {"rack": "r2", "role": "edge"})
list_nodes = consul.base.CB.json(index=True)
_, by_meta = c.http.get(list_nodes, "/v1/catalog/nodes", params=[("node-meta", "role:edge"), ("node-meta", "rack:r2")])
assert [n["Node"] for n in by_meta] == ["py-node-b"], by_meta
_, filtered = c.http.get(list_nodes, "/v1/catalog/nodes", params={"filter": 'Meta.role == "edge" and Address matches "^10\\.9\\."'})
assert [n["Node"] for n in filtered] == ["py-node-a", "py-node-b"], filtered
index, _ = c.catalog.nodes()
thread = threading.Thread(target=node_blocker)
thread.start()
time.sleep(0.2)
assert c.catalog.deregister("py-node-a") is True
thread.join(25)
_, after_leave = result["value"]
assert "py-node-a" not in [n["Node"] for n in after_leave], after_leave
ok("catalog-nodes")
