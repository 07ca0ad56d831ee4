// What the benchmarks read of processes from /proc, in one place: CPU time, a process tree, a
// PostgreSQL cluster's processes. Linux only, like the benchmarks' taskset placement.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether `taskset` can pin a process here (the benchmarks run unpinned, and say so, without it). */
export const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), or null when gone. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    // A process that ended between the listing and the read.
    return null;
  }
}

/** User + system CPU milliseconds of `pids` so far (/proc/<pid>/stat fields 14 and 15, in clock ticks). */
export function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields !== null) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

/** `root` and every process below it (a primary's workers), from the parent pid in /proc/<pid>/stat. */
export function treePids(root) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields !== null) parents.set(entry, fields[1]);
  }
  const tree = [String(root)];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  return tree;
}

/** A throwaway cluster's postmaster and its children (backends, writers). */
export function postgresPids(cluster) {
  const postmaster = readFileSync(join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
  const children = spawnSync('ps', ['-o', 'pid=', '--ppid', postmaster], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return [postmaster, ...children];
}
