"""PyYAML as an independent reader and writer for the YAML tests (stdin: JSON request, stdout: JSON answer)."""
import json
import sys

import yaml

try:
    from yaml import CSafeLoader
except ImportError:  # libyaml is optional
    CSafeLoader = None


def load(text, loader):
    try:
        return {"ok": True, "value": yaml.load(text, Loader=loader)}
    except Exception as e:  # noqa: BLE001 - every failure is an answer
        return {"ok": False, "error": f"{type(e).__name__}: {e}"}


def main():
    request = json.load(sys.stdin)
    if request["mode"] == "load":
        out = [load(t, yaml.SafeLoader) for t in request["texts"]]
        if CSafeLoader is not None:
            out_c = [load(t, CSafeLoader) for t in request["texts"]]
        else:
            out_c = None
        answer = {"pure": out, "libyaml": out_c}
    elif request["mode"] == "dump":
        answer = [
            yaml.dump(item["value"], indent=4, sort_keys=False, default_flow_style=False,
                      allow_unicode=item["allow_unicode"], width=item["width"])
            for item in request["items"]
        ]
    else:
        raise SystemExit("unknown mode")
    sys.stdout.write(json.dumps(answer, ensure_ascii=True, allow_nan=True, default=repr))


main()
