import os, time
_P = os.environ.get("CK_TL")
def log(*a):
    if _P:
        with open(_P, "a") as f:
            f.write("%.3f %d %s\n" % (time.time(), os.getpid(), " ".join(map(str, a))))
def listen():
    if not _P:
        return
    from numba.core import event as ev
    class L(ev.Listener):
        def on_start(s, e):
            log("start", e.data["dispatcher"].py_func.__qualname__)
        def on_end(s, e):
            log("end", e.data["dispatcher"].py_func.__qualname__)
    ev.register("numba:compile", L())
    class P(ev.Listener):
        def on_start(s, e):
            if "walk" in str(e.data.get("qualname")): log("pass+", e.data["name"].split()[0])
        def on_end(s, e):
            if "walk" in str(e.data.get("qualname")): log("pass-", e.data["name"].split()[0])
    ev.register("numba:run_pass", P())
