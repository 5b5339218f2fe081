import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectionSchema } from '../../common/settings.ts';
import { ArchiveClient } from '../../main/core/client/archive-client.ts';
import { ConnectionMonitor } from '../../main/core/client/connection-monitor.ts';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { startHarness, type Harness } from '../helpers/archive-harness.ts';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.ts';

/** Short timings: the design's 2 s idle probe and 2 s timeout, scaled down so the suite stays fast. */
const QUICK = { idleProbeMs: 150, probeTimeoutMs: 300, offlineBackoff: { baseMs: 50, capMs: 200 } };

async function until(probe: () => boolean, what: string, ms: number): Promise<number> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connection monitor: outcomes count in the order their requests were sent', () => {
  const monitor = () => new ConnectionMonitor({ probe: () => Promise.reject(new Error('not used')) });

  it('a late answer to a request sent before the outage does not bring it back online', () => {
    const m = monitor();
    const beforeOutage = m.begin();
    const probe = m.begin();
    m.unreachable(probe, 'Cannot reach the service (ECONNREFUSED)');
    m.answered(beforeOutage);
    expect(m.current).toEqual({ online: false, reason: 'Cannot reach the service (ECONNREFUSED)' });
    m.answered(m.begin());
    expect(m.current).toEqual({ online: true, reason: null });
  });

  it('a request that stalled before the service came back does not take it offline again', () => {
    const m = monitor();
    const stalled = m.begin();
    m.unreachable(m.begin(), 'Cannot reach the service (ECONNREFUSED)');
    m.answered(m.begin());
    m.unreachable(stalled, 'The service did not answer in time');
    expect(m.current).toEqual({ online: true, reason: null });
  });
});

describe('connection monitor against a server that stops while a request is in flight', () => {
  it('stays offline when the stopping server answers its last request after a probe found it gone', async () => {
    let held: ServerResponse | undefined;
    const server = createServer((req, res) => {
      req.resume();
      if (req.url?.startsWith('/v1/documents')) held = res;
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"status":"ok"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new ArchiveClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'das_test',
      maxAttempts: 1,
      connection: QUICK,
    });
    try {
      const listing = client.listDocuments();
      await until(() => held !== undefined, 'the list request to arrive', 5_000);
      // The server stops: no new connections, the request in flight is still answered (as a closing server does).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      expect(await client.connection.check()).toBe(false);
      expect(client.connection.online).toBe(false);
      held!
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ success: true, items: [], total: 0, limit: 50, offset: 0 }));
      expect((await listing).items).toEqual([]);
      expect(client.connection.current).toEqual({
        online: false,
        reason: expect.stringMatching(/^Cannot reach the service \(ECONNREFUSED\)/),
      });
      server.closeIdleConnections();
      await closed;
    } finally {
      await client.close();
      server.closeAllConnections();
    }
  });
});

describe('connection monitor against the real service', () => {
  let h: Harness;
  let proxy: FaultProxy;
  let client: ArchiveClient;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(async () => {
    await client.close();
    await proxy.close();
  });

  it('says offline soon after the service goes away while nothing else is sent, stays offline, and comes back', async () => {
    proxy = await startFaultProxy(h.url);
    client = new ArchiveClient({ baseUrl: proxy.url, apiKey: h.adminKey, maxAttempts: 1, connection: QUICK });
    const changes: boolean[] = [];
    // Transitions only (a new reason while offline is a change too, but not a flip).
    client.connection.on('change', (state) => {
      if (changes.at(-1) !== state.online) changes.push(state.online);
    });
    client.connection.start();
    await until(() => proxy.requests.some((r) => r.path === '/v1/health'), 'an idle probe', 5_000);
    const tokens = client.rateLimits.requests.remaining;

    await proxy.offline();
    await until(() => !client.connection.online, 'offline while idle', 5_000);
    await sleep(500); // several failed probes: none of them flips it back
    expect(client.connection.online).toBe(false);

    await proxy.online();
    await until(() => client.connection.online, 'online again by probing', 5_000);
    expect(changes).toEqual([false, true]);
    // Probes are health checks without a key: they spend none of the key's requests.
    expect(client.rateLimits.requests.remaining).toBe(tokens);
    expect(proxy.requests.filter((r) => r.path !== '/v1/health')).toEqual([]);
  });

  it('counts a service that accepts connections but never answers as offline', async () => {
    proxy = await startFaultProxy(h.url, () => ({ kind: 'stall' }));
    client = new ArchiveClient({ baseUrl: proxy.url, apiKey: h.adminKey, maxAttempts: 1, connection: QUICK });
    client.connection.start();
    await until(() => !client.connection.online, 'offline by timeout', 5_000);
    expect(client.connection.reason).toBe('The service did not answer in time');
    proxy.plan = () => ({ kind: 'pass' });
    await until(() => client.connection.online, 'online once it answers', 5_000);
  });
});

describe('the desktop status while idle', () => {
  let h: Harness;
  let proxy: FaultProxy;
  let app: DesktopApp;
  let dir: string;
  beforeAll(async () => {
    h = await startHarness();
    proxy = await startFaultProxy(h.url);
    dir = await mkdtemp(join(tmpdir(), 'status-idle-'));
    app = await DesktopApp.open({
      appDataDir: join(dir, 'data'),
      settings: new SettingsStore(openConfBackend({ cwd: join(dir, 'config') })),
      keys: new SessionKeyStore(),
      apiKeyOverride: h.adminKey,
      connectionTimings: QUICK,
      connection: connectionSchema.parse({ mode: 'hosted', base_url: proxy.url }),
      previewUrl: (id) => `preview://document/${id}`,
    });
    await app.start();
  });
  afterAll(async () => {
    await app.stop();
    await proxy.close();
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('goes offline when the service goes away with nothing to upload, stays so through the outage, and recovers', async () => {
    await until(() => app.status().last_sync_at !== null, 'the first library sync', 10_000);
    expect(app.status()).toMatchObject({ online: true, reason: null });
    const seen: boolean[] = [];
    app.on('status.changed', (status) => seen.push(status.online));

    await proxy.offline();
    await until(() => !app.status().online, 'status offline', 5_000);
    await sleep(600);
    expect(app.status()).toMatchObject({ online: false, reason: expect.stringMatching(/^Cannot reach the service/) });
    expect(seen.includes(true)).toBe(false);

    await proxy.online();
    await until(() => app.status().online, 'status online again', 5_000);
  });
});
