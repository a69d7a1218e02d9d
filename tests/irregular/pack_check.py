#!/usr/bin/env python3
"""tests/irregular/pack_check.py STATS.json SIZES THRESHOLD LANES

Recomputes 003 §IV-B's packing from the measured instruction count of each
warp size (the run's "grid" statistics) and the warp-size list, independently
of cmodel/grid.c, and checks the run's buckets and partitions against it:
sizes sorted by count (then size) open a new bucket when their count exceeds
the bucket's smallest by more than THRESHOLD; the warps, in the list's order
(grid_order_seed = 0), fill one open partition per bucket up to LANES lanes.
Exit 0 and one line "ok ..." when they agree, 1 with the difference."""
import json
import sys


def main():
    stats, sizes, thr, lanes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    g = json.load(open(stats))["grid"]
    ws = [int(x) for x in sizes.replace(",", " ").split()]
    vals = sorted(set(ws))
    if g["sizes"] != vals:
        print("sizes %s, expected %s" % (g["sizes"], vals))
        return 1
    insts = dict(zip(vals, g["size_insts"]))
    bucket, lo, nb = {}, None, 0
    for v in sorted(vals, key=lambda v: (insts[v], v)):
        if lo is None or insts[v] - lo > thr:
            nb += 1
            lo = insts[v]
        bucket[v] = nb - 1
    want_b = [bucket[v] for v in vals]
    if g["size_bucket"] != want_b or g["buckets"] != nb:
        print("buckets %s (%d), expected %s (%d)" % (g["size_bucket"], g["buckets"], want_b, nb))
        return 1
    fill, open_p = [], {}
    for n in ws:
        b = bucket[n]
        if b not in open_p or fill[open_p[b]] + n > lanes:
            open_p[b] = len(fill)
            fill.append(0)
        fill[open_p[b]] += n
    if g["partitions"] != len(fill) or g["packed_lanes"] != sum(fill):
        print("partitions %d (%d lanes), expected %d (%d lanes)" % (g["partitions"], g["packed_lanes"], len(fill),
                                                                     sum(fill)))
        return 1
    print("ok %d warps, %d buckets, %d partitions" % (len(ws), nb, len(fill)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
