"""Prints one run of lab/experiments/insns.sh: user instructions per operation (one system call, the post's doorbell, per
operation) on the client's CPU, by library and, for Java, by compiled method with its tier (T4: C2)."""
import bisect
import collections
import re
import subprocess
import sys
import tempfile


KERNEL = 0x0000800000000000


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


def load_bases(path):
    """Each shared library's load address (its mapping at file offset 0) and path, by file name."""
    bases = {}
    try:
        with open(path) as f:
            for line in f:
                x = line.split()
                if len(x) > 5 and int(x[2], 16) == 0 and x[5].startswith('/'):
                    bases.setdefault(x[5].split('/')[-1], (int(x[0].split('-')[0], 16), x[5]))
    except FileNotFoundError:
        pass
    return bases


def dynamic_symbols(path):
    """A library's exported functions (nm -D), sorted by address: Debian's libraries keep only those."""
    try:
        text = subprocess.run(['nm', '-D', '--defined-only', path], capture_output=True, text=True).stdout
    except OSError:
        return []
    return sorted((int(a, 16), name) for a, kind, name in (line.split()[:3] for line in text.splitlines()
                                                         if len(line.split()) >= 3) if kind in 'TtWi')


def nearest(symbols, starts, addr):
    """The name of the last symbol at or below addr in an (address, name) list sorted by address."""
    i = bisect.bisect_right(starts, addr) - 1
    return symbols[i][1] if i >= 0 else '?'


def find(table, starts, addr):
    i = bisect.bisect_right(starts, addr) - 1
    return table[i][2] if i >= 0 and table[i][0] <= addr < table[i][1] else None


def main(out, run):
    with open(f'{out}/counts-{run}.txt') as f:
        head = f.readline().split()
        rows = [l.split() for l in f]
    every_block = [(int(x[1], 16), int(x[2])) for x in rows if x[0] == 'block']
    blocks = [b for b in every_block if b[0] < KERNEL]
    code = {int(x[1], 16): (int(x[3]), x[4]) for x in rows if x[0] == 'block' and len(x) > 4}
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
    if len(head) > 14:
        print(f'blocks translated in the window by the client vCPU: user {head[12]}, kernel {head[14]} '
              f'({(int(head[12]) + int(head[14])) / ops:.4f} per operation)')
    for lib, n in by_lib.most_common(8):
        if n / ops >= 1:
            print(f'by library: {n / ops:7.1f}  {lib}')
    for method, n in by_method.most_common(12):
        if n / ops >= 1:
            print(f'compiled code: {n / ops:7.1f}  {method[:150]}')
    # By exported function within each library, for libraries other than the client's own code (which C keeps
    # whole and Java compiles): the nearest exported symbol below, so a local function shows as its neighbour.
    bases = load_bases(f'{out}/maps-{run}.txt')
    by_symbol = collections.Counter()
    symbols = {}
    for addr, insns in blocks:
        lib = find(libs, lib_starts, addr)
        if lib not in bases:
            continue
        if lib not in symbols:
            table = dynamic_symbols(bases[lib][1])
            symbols[lib] = table, [a for a, _ in table]
        by_symbol[f'{lib} {nearest(*symbols[lib], addr - bases[lib][0])}'] += insns
    for symbol, n in by_symbol.most_common(12):
        if n / ops >= 2:
            print(f'by function: {n / ops:7.1f}  {symbol}')

    speed_by_host_cpu([x for x in rows if x[0] == 'quarter'])
    kernel_functions(out, [b for b in every_block if b[0] >= KERNEL], ops)
    threads(out, run)
    disassemble(out, run, code, ops, lambda a: find(tiers, tier_starts, a) or find(stubs, stub_starts, a)
                or find(libs, lib_starts, a) or '?')


def speed_by_host_cpu(quarters):
    """The window's quarter seconds by the host CPU the client's vCPU thread ended each on: how many, and the
    median operations and guest instructions per second. Same work at another speed is the host's doing."""
    by_cpu = collections.defaultdict(list)
    prev = (0, 0, 0)
    for _, ms, calls, insns, cpu in quarters:
        ms, calls, insns = int(ms), int(calls), int(insns)
        seconds = (ms - prev[0]) / 1000
        if seconds > 0 and calls > prev[1]:
            by_cpu[cpu].append(((calls - prev[1]) / seconds, (insns - prev[2]) / seconds))
        prev = (ms, calls, insns)
    for cpu, speeds in sorted(by_cpu.items()):
        ops = sorted(o for o, _ in speeds)
        mips = sorted(i for _, i in speeds)
        print(f'on host CPU {cpu}: {len(speeds)} quarter seconds, operations/s median {ops[len(ops) // 2]:.0f} '
              f'(slowest {ops[0]:.0f}, fastest {ops[-1]:.0f}), guest instructions/s median '
              f'{mips[len(mips) // 2] / 1e6:.0f} M')


def disassemble(out, run, code, ops, owner):
    """Writes disas-RUN.txt: the blocks that ran at least every other operation, by owner (compiled method,
    stub or library) and address, each with how often it ran per operation and its instructions (objdump)."""
    by_owner = collections.defaultdict(list)
    for addr, (runs, hexbytes) in code.items():
        by_owner[owner(addr)].append((addr, runs, hexbytes))
    with open(f'{out}/disas-{run}.txt', 'w') as f, tempfile.NamedTemporaryFile(suffix='.bin') as tmp:
        for name, found in sorted(by_owner.items(), key=lambda kv: -sum(len(h) for _, _, h in kv[1])):
            f.write(f'== {name}\n')
            for addr, runs, hexbytes in sorted(found):
                tmp.seek(0)
                tmp.truncate()
                tmp.write(bytes.fromhex(hexbytes))
                tmp.flush()
                text = subprocess.run(['objdump', '-D', '-b', 'binary', '-m', 'i386:x86-64',
                                       f'--adjust-vma={addr:#x}', tmp.name], capture_output=True, text=True).stdout
                f.write(f'-- block {addr:#x}: {runs / ops:.2f} per operation\n')
                f.write(''.join(line + '\n' for line in text.splitlines() if re.match(r'\s+[0-9a-f]+:\t', line)))


def kernel_functions(out, blocks, ops):
    """The kernel's instructions by function (the guest's /proc/kallsyms, saved once per boot)."""
    try:
        with open(f'{out}/kallsyms.txt') as f:
            table = sorted((int(a, 16), name) for a, kind, name, *_ in (line.split() for line in f)
                           if kind in 'tT' and int(a, 16) > 0)
    except (FileNotFoundError, ValueError):
        return
    starts = [a for a, _ in table]
    by_function = collections.Counter()
    for addr, insns in blocks:
        by_function[nearest(table, starts, addr)] += insns
    for name, n in by_function.most_common(25):
        if n / ops >= 20:
            print(f'kernel function: {n / ops:7.1f}  {name}')


def thread_table(path):
    table = {}
    try:
        with open(path) as f:
            for line in f:
                tid, run, slices, cpu, name = line.split()
                table[tid] = (int(run), int(slices), cpu, name)
    except FileNotFoundError:
        pass
    return table


def threads(out, run):
    """The threads that ran on the client's CPU (1) between the two scheduler snapshots, by name."""
    start, end = thread_table(f'{out}/threads-start-{run}.txt'), thread_table(f'{out}/threads-end-{run}.txt')
    used = collections.Counter()
    slices = collections.Counter()
    for tid, (run_ns, n, cpu, name) in end.items():
        before = start.get(tid, (0, 0, cpu, name))
        if cpu == '1' and run_ns > before[0]:
            key = re.sub(r'\d+', 'N', name)
            used[key] += run_ns - before[0]
            slices[key] += n - before[1]
    total = sum(used.values())
    for name, ns in used.most_common(12):
        print(f'on CPU 1: {ns / 1e6:9.1f} ms {100 * ns / total:5.1f}% {slices[name]:7d} slices  {name}')


main(sys.argv[1], sys.argv[2])
