import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isRecord } from '@licence/http-vector-runner';
import { consoleAssets } from '@licence/console';
import { HEALTH_PATH, PUBLIC_PATHS, readServiceConfig } from '@licence/service';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { Tags } from 'yaml';
import { DRAIN_MARGIN_MS } from '../src/drain-outbox.js';
import { loadLambdaConfig, loadWebhooksConfig } from '../src/lambda-config.js';

/**
 * template.yaml cannot be deployed here (no AWS account): it is checked as what it is, a YAML
 * document (with CloudFormation's short tags), against the bundle, the service's routes and the
 * environment names of docs/protocol.md#configuration.
 */

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * docs/protocol.md#configuration: the defaults of LICENCE_WEBHOOKS_PER_AUTHOR and
 * LICENCE_WEBHOOK_CONCURRENCY; docs/protocol.md#delivery: one deadline of 15 s per attempt.
 */
const DEFAULT_WEBHOOKS_PER_AUTHOR = 10;
const WEBHOOK_CONCURRENCY = 32;
const WEBHOOK_TIMEOUT_MS = 15_000;

/** Shared variables as the functions read them (@licence/service's readServiceConfig): their value, or the faults. */
function readingOf<K extends 'webhookAllowPrivate' | 'stagingHosts'>(key: K, env: Record<string, string>) {
  const read = readServiceConfig(env, '/', { only: [key] });
  return read.ok ? { ok: true, value: read.value[key] } : read;
}
const TEMPLATE = join(APP_DIR, 'template.yaml');

/** docs/protocol.md#configuration: the fixed environment names (scripts and docs rely on them). */
const CONFIGURATION_NAMES = [
  'HOST',
  'PORT',
  'LICENCE_DATA_DIR',
  'DATABASE_URL',
  'LICENCE_SIGNING_KEY',
  'LICENCE_SIGNING_KEY_FILE',
  'LICENCE_ADMIN_TOKEN',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'LICENCE_WEBHOOK_ALLOW_PRIVATE',
  'LICENCE_STAGING_HOSTS',
  'LICENCE_PUBLIC_URL',
  'LICENCE_BUYER_TRANSFERS_PER_30_DAYS',
  'LICENCE_WEBHOOKS_PER_AUTHOR',
  'LICENCE_WEBHOOK_CONCURRENCY',
];

/** CloudFormation's short forms: scalars as their long form, the others as their sequence. */
const CLOUDFORMATION_TAGS: Tags = [
  { tag: '!Ref', resolve: (value: string) => ({ Ref: value }) },
  { tag: '!Sub', resolve: (value: string) => ({ 'Fn::Sub': value }) },
  { tag: '!GetAtt', resolve: (value: string) => ({ 'Fn::GetAtt': value }) },
  ...['!If', '!Not', '!Equals', '!Join'].map((tag) => ({ tag, collection: 'seq' as const })),
];

function record(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`${what}: expected a mapping, got ${JSON.stringify(value)}`);
  return value;
}

/** The HTTP API events of the function, as `METHOD /path` route keys. */
function httpRoutes(): string[] {
  return Object.values(record(fn.Events, 'Events'))
    .map((event) => record(event, 'event'))
    .filter((event) => event.Type === 'HttpApi')
    .map((event) => record(event.Properties, 'Properties'))
    .map((properties) => {
      expect(properties.ApiId).toEqual({ Ref: 'LicenceApi' });
      return `${String(properties.Method)} ${String(properties.Path)}`;
    });
}

/**
 * Whether an HTTP API route key takes `method path`: ANY takes every method; `{proxy+}` (a greedy
 * path variable) one segment or more; `{name}` exactly one.
 */
function reaches(route: string, method: string, path: string): boolean {
  const [routeMethod = '', routePath = ''] = route.split(' ');
  if (routeMethod !== 'ANY' && routeMethod !== method) return false;
  const pattern = routePath
    .split('/')
    .map((part) => (part.endsWith('+}') ? '[^/]+(?:/[^/]+)*' : part.startsWith('{') ? '[^/]+' : part))
    .join('/');
  return new RegExp(`^${pattern}$`).test(path);
}

let template: Record<string, unknown> = {};
let resources: Record<string, unknown> = {};
let parameters: Record<string, unknown> = {};
let fn: Record<string, unknown> = {};
let webhooksFn: Record<string, unknown> = {};

beforeAll(async () => {
  const document = parseDocument(readFileSync(TEMPLATE, 'utf8'), { customTags: CLOUDFORMATION_TAGS });
  expect(document.errors).toEqual([]);
  expect(document.warnings).toEqual([]);
  template = record(document.toJS(), 'template');
  resources = record(template.Resources, 'Resources');
  parameters = record(template.Parameters, 'Parameters');
  fn = record(record(resources.LicenceFunction, 'LicenceFunction').Properties, 'LicenceFunction.Properties');
  webhooksFn = record(
    record(resources.LicenceWebhooksFunction, 'LicenceWebhooksFunction').Properties,
    'LicenceWebhooksFunction.Properties',
  );
});

describe('template.yaml (AWS SAM)', () => {
  it('is a SAM template with an HTTP API and the function', () => {
    expect(template.Transform).toBe('AWS::Serverless-2016-10-31');
    expect(record(resources.LicenceApi, 'LicenceApi').Type).toBe('AWS::Serverless::HttpApi');
    expect(record(resources.LicenceFunction, 'LicenceFunction').Type).toBe('AWS::Serverless::Function');
  });

  it("its handler is the built bundle's `handler` export, on a Node runtime the bundle targets", async () => {
    expect(fn.CodeUri).toBe('dist/lambda/');
    expect(fn.Handler).toBe('index.handler');
    const bundle = join(APP_DIR, String(fn.CodeUri), 'index.mjs');
    expect(existsSync(bundle)).toBe(true);
    const loaded: unknown = await import(pathToFileURL(bundle).href);
    expect(isRecord(loaded) && typeof loaded.handler === 'function').toBe(true);
    expect(fn.Runtime).toEqual({ Ref: 'NodeRuntime' });
    expect(record(parameters.NodeRuntime, 'NodeRuntime').AllowedValues).toEqual(['nodejs20.x', 'nodejs22.x']);
    expect(fn.Timeout).toBeGreaterThan(4);
  });

  it('every environment variable is a name of docs/protocol.md#configuration the function reads, from a parameter; secrets are NoEcho', () => {
    const variables = record(record(fn.Environment, 'Environment').Variables, 'Variables');
    const names = Object.keys(variables);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(CONFIGURATION_NAMES).toContain(name);
    // Each is read: a bad value of it makes the configuration name it.
    for (const name of names) {
      const loaded = loadLambdaConfig({ [name]: 'x' }, '/');
      expect(loaded.ok ? [] : loaded.errors.map((error) => error.variable)).toContain(name);
    }
    for (const [name, value] of Object.entries(variables)) {
      const parameter = record(parameters[String(record(value, name).Ref)], `parameter of ${name}`);
      if (['DATABASE_URL', 'LICENCE_SIGNING_KEY', 'LICENCE_ADMIN_TOKEN'].includes(name))
        expect(parameter.NoEcho).toBe(true);
    }
  });

  it('routes every path the service serves, on the HTTP API, and the daily purge', () => {
    const events = Object.values(record(fn.Events, 'Events')).map((event) => record(event, 'event'));
    const routes = httpRoutes();
    const expected = [
      ...PUBLIC_PATHS.flatMap((path) => [`POST ${path}`, `OPTIONS ${path}`]),
      `GET ${HEALTH_PATH}`,
      'ANY /admin/{proxy+}',
      // docs/protocol.md#console: the page and its assets, served by the function itself.
      'GET /console',
      'GET /console/{proxy+}',
      // docs/protocol.md#buyer-links: the buyer's page, its style sheet and its form.
      'GET /buyer/buyer.css',
      'GET /buyer/{token}',
      'POST /buyer/{token}/transfer',
      // docs/protocol.md#favicon: the icon a browser asks of every page.
      'GET /favicon.ico',
    ];
    expect(routes.sort()).toEqual(expected.sort());
    const schedules = events
      .filter((event) => event.Type === 'Schedule')
      .map((event) => record(event.Properties, 'Properties').Schedule);
    expect(schedules).toEqual(['rate(1 day)']);
  });

  it("routes the console's page and every one of its files to the function, for GET only (docs/protocol.md#console)", () => {
    const routes = httpRoutes();
    const paths = Object.keys(consoleAssets.files).map((name) =>
      name === 'index.html' ? '/console' : `/console/${name}`,
    );
    expect(paths).toContain('/console/console.js');
    for (const path of paths) {
      expect(routes.filter((route) => reaches(route, 'GET', path))).toHaveLength(1);
      expect(routes.filter((route) => reaches(route, 'POST', path))).toEqual([]);
    }
    // Nothing else under /console reaches the function but through those two routes.
    expect(routes.filter((route) => route.includes(' /console'))).toEqual(['GET /console', 'GET /console/{proxy+}']);
  });

  it('LICENCE_PUBLIC_URL and LICENCE_BUYER_TRANSFERS_PER_30_DAYS are parameters of the API function, empty by default: the defaults (docs/protocol.md#buyer-links)', () => {
    const apiVariables = record(record(fn.Environment, 'Environment').Variables, 'Variables');
    const webhookVariables = record(record(webhooksFn.Environment, 'Environment').Variables, 'Variables');
    for (const [name, parameterName] of [
      ['LICENCE_PUBLIC_URL', 'PublicUrl'],
      ['LICENCE_BUYER_TRANSFERS_PER_30_DAYS', 'BuyerTransfersPer30Days'],
    ] as const) {
      const parameter = record(parameters[parameterName], parameterName);
      expect(parameter).toMatchObject({ Type: 'String', Default: '' });
      expect(apiVariables[name]).toEqual({ Ref: parameterName });
      expect(webhookVariables).not.toHaveProperty(name);
    }
    const loaded = loadLambdaConfig({ LICENCE_PUBLIC_URL: '', LICENCE_BUYER_TRANSFERS_PER_30_DAYS: '' }, '/');
    expect(loaded.ok ? [] : loaded.errors.map((error) => error.variable)).not.toContain('LICENCE_PUBLIC_URL');
  });

  it('LICENCE_WEBHOOKS_PER_AUTHOR (API function) and LICENCE_WEBHOOK_CONCURRENCY (webhooks function) are parameters, empty by default: the defaults (docs/protocol.md#limits)', () => {
    const apiVariables = record(record(fn.Environment, 'Environment').Variables, 'Variables');
    const webhookVariables = record(record(webhooksFn.Environment, 'Environment').Variables, 'Variables');
    for (const parameterName of ['WebhooksPerAuthor', 'WebhookConcurrency']) {
      expect(record(parameters[parameterName], parameterName)).toMatchObject({ Type: 'String', Default: '' });
    }
    expect(apiVariables.LICENCE_WEBHOOKS_PER_AUTHOR).toEqual({ Ref: 'WebhooksPerAuthor' });
    expect(webhookVariables.LICENCE_WEBHOOK_CONCURRENCY).toEqual({ Ref: 'WebhookConcurrency' });
    const empty = { LICENCE_WEBHOOKS_PER_AUTHOR: '', LICENCE_WEBHOOK_CONCURRENCY: '' };
    const webhooks = readServiceConfig(empty, '/', { only: ['webhooksPerAuthor', 'webhookConcurrency'] });
    expect(webhooks.ok && { ok: true, value: webhooks.value.webhooksPerAuthor }).toEqual({
      ok: true,
      value: DEFAULT_WEBHOOKS_PER_AUTHOR,
    });
    expect(webhooks.ok && { ok: true, value: webhooks.value.webhookConcurrency }).toEqual({
      ok: true,
      value: WEBHOOK_CONCURRENCY,
    });
  });

  it('routes the buyer pages to the function: GET the page and its style sheet, POST the form only', () => {
    const routes = httpRoutes();
    const token = 'MTc5NTQyODg0MC4xLkFCQ0Q.c2lnbmF0dXJl';
    expect(routes.filter((route) => reaches(route, 'GET', `/buyer/${token}`))).toEqual(['GET /buyer/{token}']);
    expect(routes.filter((route) => reaches(route, 'POST', `/buyer/${token}/transfer`))).toEqual([
      'POST /buyer/{token}/transfer',
    ]);
    // HTTP APIs prefer the route without a variable: the style sheet is its own.
    expect(routes.filter((route) => reaches(route, 'GET', '/buyer/buyer.css'))).toContain('GET /buyer/buyer.css');
    expect(routes.filter((route) => reaches(route, 'POST', `/buyer/${token}`))).toEqual([]);
  });

  it('throttles the public route at the HTTP API', () => {
    const api = record(record(resources.LicenceApi, 'LicenceApi').Properties, 'LicenceApi.Properties');
    const routeSettings = record(api.RouteSettings, 'RouteSettings');
    for (const path of PUBLIC_PATHS) {
      expect(record(routeSettings[`POST ${path}`], path)).toEqual({
        ThrottlingRateLimit: { Ref: 'RouteRateLimit' },
        ThrottlingBurstLimit: { Ref: 'RouteBurstLimit' },
      });
    }
    expect(record(api.DefaultRouteSettings, 'DefaultRouteSettings')).toHaveProperty('ThrottlingRateLimit');
  });
});

describe('template.yaml: the scheduled webhooks function (docs/protocol.md#webhooks)', () => {
  it("is the bundle's `webhooks` export, on the API function's runtime, architecture and VPC", async () => {
    expect(record(resources.LicenceWebhooksFunction, 'LicenceWebhooksFunction').Type).toBe('AWS::Serverless::Function');
    expect(webhooksFn.CodeUri).toBe(fn.CodeUri);
    expect(webhooksFn.Handler).toBe('index.webhooks');
    const loaded: unknown = await import(pathToFileURL(join(APP_DIR, String(webhooksFn.CodeUri), 'index.mjs')).href);
    expect(isRecord(loaded) && typeof loaded.webhooks === 'function').toBe(true);
    for (const property of ['Runtime', 'Architectures', 'VpcConfig'])
      expect(webhooksFn[property]).toEqual(fn[property]);
  });

  it('runs every minute, long enough for a round of attempts at their timeout, and is not retried by Lambda', () => {
    const events = Object.values(record(webhooksFn.Events, 'Events')).map((event) => record(event, 'event'));
    expect(events.map((event) => event.Type)).toEqual(['Schedule']);
    expect(events.map((event) => record(event.Properties, 'Properties').Schedule)).toEqual(['rate(1 minute)']);
    expect(Number(webhooksFn.Timeout) * 1000).toBeGreaterThanOrEqual(WEBHOOK_TIMEOUT_MS + DRAIN_MARGIN_MS);
    // Within Lambda's 15 minutes, and no longer than the schedule's minute: runs overlap little.
    expect(Number(webhooksFn.Timeout)).toBeLessThanOrEqual(60);
    expect(record(webhooksFn.EventInvokeConfig, 'EventInvokeConfig').MaximumRetryAttempts).toBe(0);
    // The store's atomic claim keeps overlapping runs from sending twice (test/webhooks-schedule.test.ts).
    expect(webhooksFn).not.toHaveProperty('ReservedConcurrentExecutions');
  });

  it('holds the database, the destination rule, the attempts in flight and the log level: no signing key, no admin token', () => {
    const variables = record(record(webhooksFn.Environment, 'Environment').Variables, 'Variables');
    expect(Object.keys(variables).sort()).toEqual([
      'DATABASE_URL',
      'LICENCE_WEBHOOK_ALLOW_PRIVATE',
      'LICENCE_WEBHOOK_CONCURRENCY',
      'LOG_LEVEL',
    ]);
    const apiVariables = record(record(fn.Environment, 'Environment').Variables, 'Variables');
    for (const [name, value] of Object.entries(variables)) {
      // The same parameter as the API function's (the attempts in flight are the webhooks function's
      // own), and read by the webhooks function's configuration.
      if (name !== 'LICENCE_WEBHOOK_CONCURRENCY') expect(value).toEqual(apiVariables[name]);
      const loaded = loadWebhooksConfig({ [name]: 'x' });
      expect(loaded.ok ? [] : loaded.errors.map((error) => error.variable)).toContain(name);
    }
  });

  it('LICENCE_WEBHOOK_ALLOW_PRIVATE is a parameter defaulting to "0", each allowed value a good one', () => {
    const parameter = record(parameters.WebhookAllowPrivate, 'WebhookAllowPrivate');
    expect(parameter.Default).toBe('0');
    expect(parameter.AllowedValues).toEqual(['0', '1']);
    expect(
      ['0', '1'].map((value) => readingOf('webhookAllowPrivate', { LICENCE_WEBHOOK_ALLOW_PRIVATE: value })),
    ).toEqual([
      { ok: true, value: false },
      { ok: true, value: true },
    ]);
  });

  it('LICENCE_STAGING_HOSTS is a parameter of the API function only, empty by default: none (docs/protocol.md#staging-hosts)', () => {
    const parameter = record(parameters.StagingHosts, 'StagingHosts');
    expect(parameter.Type).toBe('String');
    expect(parameter.Default).toBe('');
    expect(readingOf('stagingHosts', {})).toEqual({ ok: true, value: [] });
    const apiVariables = record(record(fn.Environment, 'Environment').Variables, 'Variables');
    expect(apiVariables.LICENCE_STAGING_HOSTS).toEqual({ Ref: 'StagingHosts' });
    const variables = record(record(webhooksFn.Environment, 'Environment').Variables, 'Variables');
    expect(variables).not.toHaveProperty('LICENCE_STAGING_HOSTS');
  });

  it('keeps its log lines as long as the API function does', () => {
    const logs = record(record(resources.LicenceWebhooksLogs, 'LicenceWebhooksLogs').Properties, 'Properties');
    expect(logs).toEqual({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's ${...} placeholder, not JavaScript's.
      LogGroupName: { 'Fn::Sub': '/aws/lambda/${LicenceWebhooksFunction}' },
      RetentionInDays: { Ref: 'LogRetentionDays' },
    });
  });
});
