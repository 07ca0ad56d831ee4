// A child of bench/buyer-flood.mjs: asks for verdicts one after another, as a shop would, and
// prints each one's latency. A process of its own, so the load generator's event loop never delays
// its timings. Arguments: port, cle, the first address index, seconds, the pause between requests
// in ms. Each client address (127.0.<n>.<m>, never 127.0.0.1, the flood's) asks at most 30 times, the
// public endpoint's limit per address in 60 s (docs/protocol.md#rate-limit), then the next one asks.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const [port, cle, firstIndex, seconds, pauseMs] = process.argv.slice(2);
const PER_ADDRESS = 30;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const body = JSON.stringify({ cle, url: 'https://boutique.fr/' });

/** The n-th client address after 127.0.0.1: 127.0.0.2 ... 127.0.0.254, 127.0.1.2 ... */
const address = (n) => `127.0.${Math.floor(n / 253)}.${2 + (n % 253)}`;

/** One verdict from `localAddress`: its status and its latency in ms, the body read to its end. */
function verdict(localAddress) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const asked = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        path: '/api/licence',
        method: 'POST',
        localAddress,
        agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'LicenceBench/1.0' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode, ms: performance.now() - started }));
      },
    );
    asked.on('error', reject);
    asked.end(body);
  });
}

const latencies = [];
const statuses = {};
const end = performance.now() + Number(seconds) * 1000;
for (let n = 0; performance.now() < end; n += 1) {
  const answer = await verdict(address(Number(firstIndex) + Math.floor(n / PER_ADDRESS)));
  latencies.push(answer.ms);
  statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  await sleep(Number(pauseMs));
}
agent.destroy();
process.stdout.write(
  `${JSON.stringify({ latencies, statuses, addresses: Math.ceil(latencies.length / PER_ADDRESS) })}\n`,
);
