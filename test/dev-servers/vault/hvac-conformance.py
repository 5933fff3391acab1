"""The embedded Vault server (cts-runtime vault-dev) exercised by hvac, Debian's python3-hvac: a real
Vault client nobody here wrote. Usage: VAULT_ADDR=... VAULT_TOKEN=<root> python3 hvac-conformance.py
Prints one JSON object: {"passed": [names], "failed": [{"name", "error"}]}.

strict_http=True makes hvac list with `GET ?list=true` (as Vault's own Go client does) instead of
the LIST method, which Node's HTTP parser refuses before any handler sees it."""
import json
import os
import sys

import hvac
from hvac import exceptions

ADDR = os.environ["VAULT_ADDR"]
ROOT = os.environ["VAULT_TOKEN"]
passed, failed = [], []


def client(token=ROOT, **kwargs):
    return hvac.Client(url=ADDR, token=token, strict_http=True, **kwargs)


def check(name):
    def run(fn):
        try:
            fn()
            passed.append(name)
        except Exception as error:  # report every failure, then go on
            failed.append({"name": name, "error": f"{type(error).__name__}: {error}"})
        return fn
    return run


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def raises(kind, fn):
    try:
        fn()
    except kind:
        return
    raise AssertionError(f"expected {kind.__name__}")


root = client()
kv2 = root.secrets.kv.v2
kv1 = root.secrets.kv.v1


@check("sys: health, seal status and the default mounts")
def _():
    health = root.sys.read_health_status(method="GET")
    expect(health["initialized"] and not health["sealed"], health)
    expect(not root.sys.is_sealed(), "sealed")
    mounts = root.sys.list_mounted_secrets_engines()["data"]
    expect(mounts["secret/"]["type"] == "kv" and mounts["secret/"]["options"]["version"] == "2", mounts)
    expect(mounts["kv/"]["options"]["version"] == "1", mounts)


@check("token: the root token authenticates and looks itself up")
def _():
    expect(root.is_authenticated(), "root token not authenticated")
    me = root.auth.token.lookup_self()["data"]
    expect(me["policies"] == ["root"] and me["id"] == ROOT and me["ttl"] == 0, me)


@check("kv v2: versions, read by version, metadata")
def _():
    first = kv2.create_or_update_secret(path="app/db", secret={"password": "one"})
    second = kv2.create_or_update_secret(path="app/db", secret={"password": "two"})
    expect(first["data"]["version"] == 1 and second["data"]["version"] == 2, (first, second))
    latest = kv2.read_secret_version(path="app/db")["data"]
    expect(latest["data"] == {"password": "two"} and latest["metadata"]["version"] == 2, latest)
    old = kv2.read_secret_version(path="app/db", version=1)["data"]
    expect(old["data"] == {"password": "one"}, old)
    meta = kv2.read_secret_metadata(path="app/db")["data"]
    expect(meta["current_version"] == 2 and set(meta["versions"]) == {"1", "2"}, meta)


@check("kv v2: check-and-set")
def _():
    raises(exceptions.InvalidRequest, lambda: kv2.create_or_update_secret(path="app/db", secret={"x": "y"}, cas=1))
    written = kv2.create_or_update_secret(path="app/db", secret={"password": "three"}, cas=2)
    expect(written["data"]["version"] == 3, written)


@check("kv v2: list, delete, undelete, destroy, delete metadata")
def _():
    kv2.create_or_update_secret(path="app/cache/key", secret={"k": "v"})
    expect(kv2.list_secrets(path="app")["data"]["keys"] == ["cache/", "db"], "list")
    kv2.delete_latest_version_of_secret(path="app/db")
    raises(exceptions.InvalidPath, lambda: kv2.read_secret_version(path="app/db"))
    kv2.undelete_secret_versions(path="app/db", versions=[3])
    expect(kv2.read_secret_version(path="app/db")["data"]["data"] == {"password": "three"}, "undelete")
    kv2.destroy_secret_versions(path="app/db", versions=[1])
    raises(exceptions.InvalidPath, lambda: kv2.read_secret_version(path="app/db", version=1))
    expect(kv2.read_secret_metadata(path="app/db")["data"]["versions"]["1"]["destroyed"] is True, "destroyed")
    kv2.delete_metadata_and_all_versions(path="app/db")
    raises(exceptions.InvalidPath, lambda: kv2.read_secret_metadata(path="app/db"))


@check("kv v1: write, read with its lease, list, delete")
def _():
    kv1.create_or_update_secret(path="team/token", secret={"value": "abc"}, mount_point="kv")
    read = kv1.read_secret(path="team/token", mount_point="kv")
    expect(read["data"] == {"value": "abc"} and read["lease_duration"] == 2764800, read)
    expect(kv1.list_secrets(path="team", mount_point="kv")["data"]["keys"] == ["token"], "list")
    kv1.delete_secret(path="team/token", mount_point="kv")
    raises(exceptions.InvalidPath, lambda: kv1.read_secret(path="team/token", mount_point="kv"))


@check("token: create with a TTL, look up, renew, revoke")
def _():
    created = root.auth.token.create(policies=["app"], ttl="1h", renewable=True)["auth"]
    expect(created["renewable"] and 0 < created["lease_duration"] <= 3600, created)
    child = client(created["client_token"])
    me = child.auth.token.lookup_self()["data"]
    expect(me["policies"] == ["app", "default"] and 0 < me["ttl"] <= 3600 and me["renewable"], me)
    looked = root.auth.token.lookup(created["client_token"])["data"]
    expect(looked["accessor"] == created["accessor"], looked)
    renewed = child.auth.token.renew_self(increment="2h")["auth"]
    expect(3600 < renewed["lease_duration"] <= 7200, renewed)
    child.auth.token.revoke_self()
    expect(not child.is_authenticated(), "revoked token still authenticated")


@check("token: a non-renewable token cannot be renewed")
def _():
    created = root.auth.token.create(ttl="10m", renewable=False)["auth"]
    raises(exceptions.InvalidRequest, lambda: client(created["client_token"]).auth.token.renew_self())


@check("a wrong token gets 403 permission denied")
def _():
    wrong = client("hvs.not-a-token")
    expect(not wrong.is_authenticated(), "wrong token authenticated")
    try:
        wrong.secrets.kv.v2.read_secret_version(path="app/cache/key")
        raise AssertionError("expected Forbidden")
    except exceptions.Forbidden as error:
        expect("permission denied" in str(error), str(error))


@check("namespaces: X-Vault-Namespace keeps secrets apart")
def _():
    team = client(namespace="team-a")
    team.secrets.kv.v2.create_or_update_secret(path="only-here", secret={"a": "1"})
    expect(team.secrets.kv.v2.read_secret_version(path="only-here")["data"]["data"] == {"a": "1"}, "namespace read")
    raises(exceptions.InvalidPath, lambda: kv2.read_secret_version(path="only-here"))


@check("sys: enable a KV v2 mount and use it")
def _():
    root.sys.enable_secrets_engine(backend_type="kv", path="more", options={"version": "2"})
    kv2.create_or_update_secret(path="x", secret={"y": "z"}, mount_point="more")
    expect(kv2.read_secret_version(path="x", mount_point="more")["data"]["data"] == {"y": "z"}, "more/")
    raises(exceptions.InvalidRequest, lambda: root.sys.enable_secrets_engine(backend_type="kv", path="secret"))


@check("consul engine: a role, a leased token, lease lookup, renewal capped at max_ttl, revocation")
def _():
    root.sys.enable_secrets_engine(backend_type="consul", path="consul")
    root.secrets.consul.create_or_update_role(name="cts", policies=["cts"], ttl="60s", max_ttl="90s")
    expect(root.secrets.consul.read_role(name="cts")["data"]["policies"] == ["cts"], "role")
    creds = root.secrets.consul.generate_credentials(name="cts")
    expect(creds["lease_id"].startswith("consul/creds/cts/") and creds["renewable"] and creds["lease_duration"] == 60, creds)
    expect(len(creds["data"]["token"]) == 36, creds)
    looked = root.sys.read_lease(lease_id=creds["lease_id"])["data"]
    expect(looked["id"] == creds["lease_id"] and looked["renewable"] and 0 < looked["ttl"] <= 60, looked)
    renewed = root.sys.renew_lease(lease_id=creds["lease_id"], increment=3600)
    expect(renewed["lease_id"] == creds["lease_id"] and 60 <= renewed["lease_duration"] <= 90, renewed)
    root.sys.revoke_lease(lease_id=creds["lease_id"])
    raises(exceptions.InvalidRequest, lambda: root.sys.read_lease(lease_id=creds["lease_id"]))


print(json.dumps({"passed": passed, "failed": failed}))
sys.exit(1 if failed else 0)
