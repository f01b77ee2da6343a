"""
The order EC2's lowest-price allocation gives CreateFleet's overrides, for the moto launcher (moto-launcher.py):
moto launches the first override, EC2 the cheapest. Kept apart from the launcher so that it imports without moto
(test/e2e-karpenter-stage.test.ts runs it on the machine's python3, before the tool build has made moto's virtualenv).
"""
import os
import re
import sys


_PRICES = None


def on_demand_prices():
    """Karpenter's built-in on-demand prices (instance type -> USD/hour), from the newest module in the Go module cache."""
    global _PRICES
    if _PRICES is None:
        import glob
        roots = [os.environ.get("GOMODCACHE") or "", os.path.join(os.path.expanduser("~"), "go", "pkg", "mod")]
        files = sorted(f for r in roots if r for f in glob.glob(os.path.join(
            r, "github.com", "aws", "karpenter-provider-aws@v1.*", "pkg", "providers", "pricing", "zz_generated.pricing_aws.go")))
        _PRICES = {}
        if files:
            text = open(files[-1]).read()
            body = text.split('"us-east-1": {', 1)[-1].split("\n\t},", 1)[0]
            _PRICES = {t: float(p) for t, p in re.findall(r'"([a-z0-9-]+\.[a-z0-9-]+)": ([0-9.]+)', body)}
        else:
            print("moto-launcher: no Karpenter price list in the Go module cache: CreateFleet keeps moto's order", file=sys.stderr)
    return _PRICES


def cheapest_first(raw):
    """A CreateFleet form body with the cheapest on-demand override first (config and override renumbered)."""
    from urllib.parse import parse_qsl, urlencode
    pairs = parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True)
    prices = on_demand_prices()
    if not prices:
        return raw
    best = None
    for k, v in pairs:
        m = re.fullmatch(r"LaunchTemplateConfigs\.(\d+)\.Overrides\.(\d+)\.InstanceType", k)
        if m and v in prices and (best is None or prices[v] < best[0]):
            best = (prices[v], m.group(1), m.group(2))
    if best is None or (best[1], best[2]) == ("1", "1"):
        return raw
    _, c, o = best

    def renumber(k):
        m = re.fullmatch(r"LaunchTemplateConfigs\.(\d+)\.(.*)", k)
        if not m:
            return k
        cc, rest = m.group(1), m.group(2)
        cc = {"1": c, c: "1"}.get(cc, cc)
        if cc == "1":
            r = re.fullmatch(r"Overrides\.(\d+)\.(.*)", rest)
            if r:
                rest = f"Overrides.{ {'1': o, o: '1'}.get(r.group(1), r.group(1)) }.{r.group(2)}"
        return f"LaunchTemplateConfigs.{cc}.{rest}"

    # configs swapped first (c <-> 1), then, within the config now first, the overrides (o <-> 1)
    return urlencode([(renumber(k), v) for k, v in pairs]).encode()
