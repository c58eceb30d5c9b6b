# Copyright (c) 2024 The fibsync authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at:
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""What the benchmark drivers read of processes and of the machine.

"fibsync-bench run" (fibsync-bench-run) and "fibsync-bench frr"
(fibsync-bench-frr) both report CPU time and memory per process and the
machine's steal: they read them here, from /proc, the same way.
Standard library only."""

import subprocess


def proc_cpu_ticks(pid):
    """utime + stime of process 'pid' in clock ticks, or None if it cannot
    be read."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return None


def proc_mem_kb(pid):
    """(VmRSS, VmHWM) of process 'pid' in kB: resident memory now and at
    its peak; (None, None) if they cannot be read."""
    rss = hwm = None
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return rss, hwm


def proc_alive(pid):
    """True if process 'pid' exists and is neither a zombie nor dead."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        return False


def cpu_steal_total():
    """(steal, total) clock ticks of all CPUs since boot, from /proc/stat's
    "cpu" line (the first eight counters make the total)."""
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("cpu "):
                v = [int(x) for x in line.split()[1:9]]
                return (v[7] if len(v) > 7 else 0), sum(v)
    return 0, 0


def first_line(argv):
    """The first line of what 'argv' prints (a version, say), or None if
    it cannot run or prints nothing within 10 s."""
    try:
        out = subprocess.run(argv, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=10,
                             universal_newlines=True).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = out.strip().splitlines()
    return lines[0].strip() if lines else None
