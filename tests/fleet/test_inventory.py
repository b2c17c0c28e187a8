"""read_hosts: host names, @FILE, Ansible INI and YAML inventories, and their bad forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherlab.errors import CaptureWarning, InventoryError
from cipherlab.runners._inventory import read_hosts
from cipherlab.runners._remote import SshHost

DATA = Path(__file__).parents[1] / "data" / "inventories"


def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return f"@{p}"


def test_names_aliases_and_user_host_port():
    hosts = read_hosts("alice, bob@build-box,pi4:2222,ssh://root@[::1]:2200,fe80::1")
    assert [(h.name, h.destination, h.user, h.port) for h in hosts] == [
        ("alice", "alice", None, None), ("bob@build-box", "build-box", "bob", None),
        ("pi4:2222", "pi4", None, 2222), ("ssh://root@[::1]:2200", "::1", "root", 2200),
        ("fe80::1", "fe80::1", None, None)]
    assert read_hosts(["a", SshHost("b", port=22)])[1].port == 22


def test_ini_inventory_groups_vars_children_ranges_and_precedence():
    hosts = {h.name: h for h in read_hosts(f"@{DATA / 'fleet.ini'}")}
    assert list(hosts) == ["bastion.example.com", "c7i-1.example.com", "c7i-2.example.com",
                           "epyc-box", "old.example.com", "pi3", "pi4", "graviton"]
    epyc = hosts["epyc-box"]
    assert (epyc.destination, epyc.port, epyc.user, epyc.openssl) == ("10.0.0.7", 2222, None,
                                                                     "openssl")
    # all:vars < cloud:vars (parent) ; host vars last; ansible_* never labels
    assert epyc.labels == {"site": "lab", "arch": "x86_64", "provider": "aws", "rack": "3"}
    assert hosts["c7i-2.example.com"].user == "ec2-user"
    assert hosts["old.example.com"].port == 5309
    pi = hosts["pi3"]
    assert (pi.user, pi.openssl, pi.labels["board"], pi.labels["arch"]) == (
        "pi", "/opt/openssl-3.3/bin/openssl", "Raspberry Pi", "aarch64")
    assert hosts["graviton"].identity_file == str(Path("~/.ssh/graviton.pem").expanduser())
    assert hosts["bastion.example.com"].labels == {"site": "lab"}


def test_yaml_inventory_reads_like_the_same_ini():
    assert read_hosts(f"@{DATA / 'fleet.yml'}") == read_hosts(f"@{DATA / 'fleet.ini'}")


def test_yaml_without_suffix_and_json(tmp_path):
    spec = _write(tmp_path, "hosts", "all:\n  hosts:\n    db1:\n      ansible_port: 2201\n")
    assert read_hosts(spec) == [SshHost("db1", port=2201)]
    spec = _write(tmp_path, "hosts.json", '{"web": {"hosts": {"w1": {"tier": 2}}}}')
    assert read_hosts(spec) == [SshHost("w1", labels={"tier": "2"})]


def test_a_plain_list_of_names_is_an_inventory(tmp_path):
    spec = _write(tmp_path, "list.txt", "# my boxes\nalpha\nbeta ansible_port=2222\n")
    assert [(h.name, h.port) for h in read_hosts(spec + ",gamma")] == [
        ("alpha", None), ("beta", 2222), ("gamma", None)]


def test_hostile_label_values_are_kept_verbatim(tmp_path):
    spec = _write(tmp_path, "inv.ini",
                  "box note=\"$(touch /tmp/pwn); rm -rf ~\" quote=\"it's\" ';x'=1\n")
    (box,) = read_hosts(spec)
    assert box.labels == {"note": "$(touch /tmp/pwn); rm -rf ~", "quote": "it's", ";x": "1"}


def test_secrets_are_never_labels(tmp_path):
    spec = _write(tmp_path, "inv.ini", "box ansible_ssh_pass=hunter2 db_password=x rack=1\n")
    with pytest.warns(CaptureWarning) as caught:
        (box,) = read_hosts(spec)
    assert [str(w.message).split(": ", 1)[1] for w in caught] == [
        "ansible_ssh_pass of host 'box' is not used: cipherlab never sends passwords (ssh runs "
        "with BatchMode=yes); the host needs a key (ssh-agent or ansible_ssh_private_key_file)",
        "variable 'db_password' of host 'box' looks secret and is not kept as a label (labels "
        "are written into every results file)"]
    assert box.labels == {"rack": "1"}
    assert "hunter2" not in repr(box)


@pytest.mark.parametrize("text, message", [
    ("[web\nbox\n", r"inv.ini, line 1: expected a section header like \[group\]"),
    ("[web:vars]\njust-a-word\n", r"line 2: expected key=value in \[web:vars\]"),
    ("box port 22\n", r"line 1: expected key=value host variables after the host name; got 'port'"),
    ("box ansible_port=ssh\n", r"line 1: ansible_port of host 'box' must be a whole number"),
    ("web[3:1]\n", r"line 1: host range '\[3:1\]' in 'web\[3:1\]' is empty"),
    ("web[x]\n", r"line 1: host 'web\[x\]' has a bracket that is not a range"),
    ("-oProxyCommand=x\n", r"line 1: '-oProxyCommand=x' .* no leading '-'"),
    ("box ansible_connection=local\n", r"line 1: host 'box' has ansible_connection=local; "
                                       r"cipherlab captures over ssh only"),
    ("box note='unclosed\n", r"line 1: No closing quotation"),
    ("# nothing\n", r"inv.ini: the inventory lists no hosts"),
])
def test_bad_ini_says_file_line_and_what_was_expected(tmp_path, text, message):
    with pytest.raises(InventoryError, match=message):
        read_hosts(_write(tmp_path, "inv.ini", text))


@pytest.mark.parametrize("text, message", [
    ("all:\n  hosts: [a, b]\n", r"inv.yml: all.hosts must be a mapping"),
    ("all:\n  host:\n    a:\n", r"all may hold hosts, vars and children; not host"),
    ("all:\n  hosts:\n    a: {b: [\n", r"inv.yml, line \d+: not valid YAML"),
    ("- a\n- b\n", r"expected a YAML mapping of groups"),
])
def test_bad_yaml_says_where(tmp_path, text, message):
    with pytest.raises(InventoryError, match=message):
        read_hosts(_write(tmp_path, "inv.yml", text))


def test_missing_file_duplicates_and_empty_lists(tmp_path):
    with pytest.raises(InventoryError, match=r"nope.ini: cannot read the inventory"):
        read_hosts(f"@{tmp_path / 'nope.ini'}")
    with pytest.raises(ValueError, match="host 'a' is listed twice"):
        read_hosts("a,b,a")
    with pytest.raises(ValueError, match="at least one host"):
        read_hosts(" , ")
