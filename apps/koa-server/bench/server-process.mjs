// How the benchmarks start a server to measure and stop it: one place for the pinning, the wait
// for its port and the orderly stop.
import { spawn } from 'node:child_process';
import { hasTaskset } from './proc-stats.mjs';

/**
 * `node <args>` on `cores` (when taskset exists), resolved once `portOf(output so far)` finds the
 * port in what the server prints on `stream` ('stdout' or 'stderr'); rejected with the end of
 * that output if it exits first. taskset execs node in place, so `pid` is the server's own.
 */
export async function startServerProcess({ name, args, cores = '0', env = process.env, stream = 'stdout', portOf }) {
  const stdio = stream === 'stdout' ? ['ignore', 'pipe', 'inherit'] : ['ignore', 'ignore', 'pipe'];
  const child = hasTaskset
    ? spawn('taskset', ['-c', cores, process.execPath, ...args], { env, stdio })
    : spawn(process.execPath, args, { env, stdio });
  let said = '';
  const port = await new Promise((resolve, reject) => {
    child[stream].on('data', (chunk) => {
      said = (said + String(chunk)).slice(-4000);
      const found = portOf(said);
      if (found !== null) resolve(found);
    });
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}: ${said.slice(-400)}`)));
  });
  return {
    port,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** bench/server-child.mjs's "listening <port>" line. */
export function listeningLine(output) {
  const match = /listening (\d+)/.exec(output);
  return match === null ? null : Number(match[1]);
}

/** `licence serve`'s banner line (stderr), "listening on http://<host>:<port>". */
export function serveBannerPort(output) {
  const match = /listening on http:\/\/[^\s:]+:(\d+)/.exec(output);
  return match === null ? null : Number(match[1]);
}
