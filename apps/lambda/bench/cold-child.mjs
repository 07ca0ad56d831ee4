// @ts-check
// One cold start (bench/run.mjs spawns this in a fresh node process per sample): load the bundle,
// answer one event, report the two times on stderr (stdout carries the function's own log lines).
import { performance } from 'node:perf_hooks';

const bundle = process.env.BUNDLE ?? '';
const event = JSON.parse(process.env.EVENT ?? '{}');
const started = performance.now();
const { handler } = await import(bundle);
const loaded = performance.now();
const result = await handler(event, { awsRequestId: 'cold-start' });
const answered = performance.now();
process.stderr.write(
  `COLD ${JSON.stringify({ sinceProcessStart: started, load: loaded - started, first: answered - loaded, status: result.statusCode })}\n`,
);
await handler.close();
