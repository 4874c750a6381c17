"""A hostile test, as the model could write one: it tries every way out of
the sandbox it knows and prints one line per attempt, "<name> <outcome>".
The paths and the address come from probe.json, written by the Go test,
since commands may not name paths outside the work tree."""
import json, os, socket, subprocess, sys

cfg = json.load(open("probe.json"))
out = []

def attempt(name, fn):
    try:
        out.append("%s %s" % (name, fn()))
    except Exception as e:  # blocked, which is what the sandbox should do
        out.append("%s blocked(%s)" % (name, type(e).__name__))

def connect():
    s = socket.create_connection(("127.0.0.1", cfg["port"]), timeout=3)
    s.sendall(b"hello from the tests\n")
    s.close()
    return "connected"

def read_home_secret():
    return "read:" + open(cfg["home_secret"]).read().strip()

def write_outside(path):
    def w():
        with open(path, "a") as f:
            f.write("PATH_INJECTED=1\n")
        return "written"
    return w

def plant_hook():
    os.makedirs(".git/hooks", exist_ok=True)
    with open(".git/hooks/post-index-change", "w") as f:
        f.write("#!/bin/sh\necho pwned\n")
    return "written"

def git_config():
    return "extraheader-visible" if "extraheader" in open(".git/config").read().lower() else "clean"

def escape():
    # setsid + env -i: out of the process group and without the marker.
    subprocess.Popen(["setsid", "sh", "-c", "(env -i sleep %s &)" % cfg["sleep"]]).wait(timeout=10)
    return "started"

attempt("network", connect)
attempt("home", read_home_secret)
attempt("github_env", write_outside(cfg["github_env"]))
attempt("outside", write_outside(cfg["outside"]))
attempt("hook", plant_hook)
attempt("gitconfig", git_config)
attempt("escape", escape)
leaked = sorted(k for k in os.environ if k in cfg["secret_names"])
out.append("env " + (",".join(leaked) or "clean"))
out.append("home_var " + os.environ.get("HOME", ""))
print("\n".join(out))
sys.stdout.flush()
