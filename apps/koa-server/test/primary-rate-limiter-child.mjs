// A primary for the rate-limiter tests (src/worker-rate-limiter.test.ts): a real forked process
// that answers hit messages over its IPC channel with the built createPrimaryRateLimiter. argv[2]:
// 'answer' (one memory limiter), 'silent' (never answers), 'failing' (a limiter that rejects).
// It also answers {type: 'count'} with how many hit messages it received (to check the batching).
import { createPrimaryRateLimiter } from '../dist/index.js';

const mode = process.argv[2] ?? 'answer';
let messages = 0;
process.on('message', (message) => {
  if (message?.type === 'licence:rate-limit-hits') messages += 1;
  if (message?.type === 'count') process.send({ type: 'count', messages });
});
if (mode === 'answer') createPrimaryRateLimiter().attach(process);
if (mode === 'failing') {
  createPrimaryRateLimiter({ hit: () => Promise.reject(new Error('disk on fire')) }).attach(process);
}
process.send({ type: 'ready' });
