"""Prints one run of bench-insns.sh: user instructions per operation (one system call, the post's doorbell, per
operation) on the client's CPU, by library and, for Java, by compiled method with its tier (T4: C2)."""
import bisect
import collections
import re
import sys


def ranges(path, parse):
    try:
        with open(path) as f:
            return sorted(r for r in map(parse, f) if r)
    except FileNotFoundError:
        return []


def codelist(line):
    m = re.match(r'(\d+) (\d+) \d+ (\S+) \[0x([0-9a-f]+), 0x[0-9a-f]+ - 0x([0-9a-f]+)\]', line)
    if not m:
        return None
    name = re.sub(r'\(.*', '', m.group(3))
    return int(m.group(4), 16), int(m.group(5), 16), f'T{m.group(2)} {name}'


def perfmap(line):
    a, s, n = line.rstrip('\n').split(' ', 2)
    return int(a, 16), int(a, 16) + int(s, 16), 'JIT ' + n


def mapping(line):
    f = line.split()
    a, b = (int(x, 16) for x in f[0].split('-'))
    return a, b, f[5].split('/')[-1] if len(f) > 5 else '[anon]'


def find(table, starts, addr):
    i = bisect.bisect_right(starts, addr) - 1
    return table[i][2] if i >= 0 and table[i][0] <= addr < table[i][1] else None


def main(out, run):
    with open(f'{out}/counts-{run}.txt') as f:
        head = f.readline().split()
        blocks = [(int(x[1], 16), int(x[2])) for x in (l.split() for l in f) if x[0] == 'block']
    ops = int(head[6])
    if ops == 0:
        print('no system call in the window: nothing to divide by')
        return
    # The code list names the tier; the perf map (written at exit) also names stubs and code since replaced.
    tiers = ranges(f'{out}/codelist-{run}.txt', codelist)
    tier_starts = [c[0] for c in tiers]
    stubs = ranges(f'{out}/perfmap-{run}.txt', perfmap)
    stub_starts = [c[0] for c in stubs]
    libs = ranges(f'{out}/maps-{run}.txt', mapping)
    lib_starts = [m[0] for m in libs]
    by_lib = collections.Counter()
    by_method = collections.Counter()
    for addr, insns in blocks:
        lib = find(libs, lib_starts, addr) or '?'
        by_lib[lib] += insns
        method = find(tiers, tier_starts, addr) or find(stubs, stub_starts, addr)
        if method:
            by_method[method] += insns
    print(f'operations {ops}: user instructions per operation {int(head[2]) / ops:.0f}, '
          f'kernel {int(head[4]) / ops:.0f}')
    for lib, n in by_lib.most_common(8):
        if n / ops >= 1:
            print(f'by library: {n / ops:7.1f}  {lib}')
    for method, n in by_method.most_common(12):
        if n / ops >= 1:
            print(f'compiled code: {n / ops:7.1f}  {method[:150]}')


main(sys.argv[1], sys.argv[2])
