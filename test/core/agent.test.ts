/**
 * The headless agent as a user sees it: its log (one timestamped line per file event, nothing twice), its status line,
 * a clean exit on SIGINT, flags that apply to one run only, and never the API key in its output. The agent runs as a
 * real child process (`main/core/agent/agent.ts`) against a real Archive Service in this process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { SETTINGS_VERSION } from '../../common/settings.ts';
import { agentLogLine } from '../../main/core/agent/agent-log.ts';
import { LEARNABLE_HIGH_LIMITS, makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';

const AGENT = join(import.meta.dirname, '../../main/core/agent/agent.ts');
/** A timestamp, one space, then text: one event per line. */
const LINE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z \S.*$/;

let h: Harness;
let tmp: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  h = await startHarness({ limits: LEARNABLE_HIGH_LIMITS });
  tmp = await mkdtemp(join(tmpdir(), 'agent-test-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await h?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface Agent {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function startAgent(args: string[], env: Record<string, string>): Agent {
  const child = spawn(process.execPath, [AGENT, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const agent: Agent = {
    child,
    stdout: [],
    stderr: [],
    exited: new Promise((resolve) =>
      child.once('exit', (code) => {
        children.delete(child);
        resolve(code);
      }),
    ),
  };
  const collect = (stream: NodeJS.ReadableStream | null, into: string[]) => {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      into.push(...parts);
    });
  };
  collect(child.stdout, agent.stdout);
  collect(child.stderr, agent.stderr);
  onTestFailed(() =>
    console.log(`---- agent output ----\n${[...agent.stdout, ...agent.stderr.map((l) => `stderr: ${l}`)].join('\n')}`),
  );
  return agent;
}

async function until(what: string, probe: () => boolean, agent: Agent, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (agent.child.exitCode !== null)
      throw new Error(`the agent exited (${agent.child.exitCode}) while waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for the exit, bounded: an agent that does not stop is killed and the test fails on its code. */
async function exitOf(agent: Agent, ms = 10_000): Promise<number | null> {
  const timer = setTimeout(() => agent.child.kill('SIGKILL'), ms);
  try {
    return await agent.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** The text of each line after its timestamp. */
const texts = (agent: Agent) => agent.stdout.map((line) => line.slice(25));

/** The secret part of a key `das_<id>_<secret>`; the secret is base64url, so it may hold `_` itself. */
const secretOf = (key: string): string => key.split('_').slice(2).join('_');

describe('headless agent', () => {
  it(
    'logs one line per file event, never the key, leaves the settings file alone and exits cleanly on SIGINT',
    { timeout: 30_000 },
    async () => {
      const inbox = join(tmp, 'log-in');
      const dataDir = join(tmp, 'log-data');
      await mkdir(inbox, { recursive: true });
      await mkdir(dataDir, { recursive: true });
      const settingsFile = join(dataDir, 'settings.json');
      // key_storage 'file': no probe of the user's real keychain (the key comes from ARCHIVE_API_KEY).
      const settingsBytes = `${JSON.stringify({ version: SETTINGS_VERSION, key_storage: 'file' }, null, 2)}\n`;
      await writeFile(settingsFile, settingsBytes);
      const good = join(inbox, 'good.pdf');
      const bad = join(inbox, 'bad.pdf');
      await writeFile(good, await makePdf(['Agent log test', tmp]));
      await writeFile(bad, 'plain text pretending to be a PDF');

      const agent = startAgent(
        [
          '--base-url',
          h.url,
          '--folder',
          inbox,
          '--stability-ms',
          '200',
          '--settings',
          settingsFile,
          '--data-dir',
          dataDir,
          '--status-every',
          '0',
        ],
        { ARCHIVE_API_KEY: h.adminKey, DESKTOP_ARCHIVE_DATA_DIR: dataDir },
      );
      await until(
        'both files settled',
        () =>
          texts(agent).some((t) => t.startsWith('uploaded: ')) && texts(agent).some((t) => t.startsWith('failed: ')),
        agent,
      );
      await until('the status line with both', () => texts(agent).some((t) => t.includes('done 1, failed 1')), agent);
      agent.child.kill('SIGINT');
      expect(await exitOf(agent)).toBe(0);

      expect(agent.stderr.filter((l) => l.trim() !== '')).toEqual([]);
      expect(agent.stdout.filter((l) => !LINE.test(l))).toEqual([]);
      const about = (path: string) => texts(agent).filter((t) => t.includes(path));
      expect(about(bad)).toEqual([
        `queued: ${bad}`,
        `failed: ${bad}: File content does not match any supported format`,
      ]);
      expect(about(good)).toEqual([
        `queued: ${good}`,
        expect.stringMatching(new RegExp(`^uploaded: ${good} → [0-9a-f-]{36}$`)),
      ]);
      expect(texts(agent).filter((t) => /upload failed/i.test(t))).toEqual([]);

      const statuses = texts(agent).filter((t) => t.startsWith('status: '));
      expect(statuses[0]).toMatch(/^status: online; queued \d+, uploading \d+, done \d+, failed \d+, paused 0$/);
      expect(statuses.at(-1)).toBe('status: online; queued 0, uploading 0, done 1, failed 1, paused 0');
      expect(texts(agent).slice(-3)).toEqual([
        'agent: SIGINT received, stopping (the queue is kept)',
        statuses.at(-1),
        'agent: stopped',
      ]);

      const output = [...agent.stdout, ...agent.stderr].join('\n');
      expect(output).not.toContain(h.adminKey);
      expect(output).not.toContain(secretOf(h.adminKey));

      // --base-url and --folder were for this run: the settings file is byte for byte what it was.
      expect(await readFile(settingsFile, 'utf8')).toBe(settingsBytes);
      // The journal is intact after SIGINT.
      const db = new DatabaseSync(join(dataDir, 'journal.sqlite'), { readOnly: true });
      try {
        expect(db.prepare('SELECT path, state FROM uploads ORDER BY path').all()).toEqual([
          { path: bad, state: 'failed' },
          { path: good, state: 'done' },
        ]);
      } finally {
        db.close();
      }
    },
  );

  it(
    'says offline when the service cannot be reached, and reports a corrupt settings file once',
    { timeout: 30_000 },
    async () => {
      const dataDir = join(tmp, 'offline-data');
      await mkdir(dataDir, { recursive: true });
      const settingsFile = join(dataDir, 'settings.json');
      await writeFile(settingsFile, '{ "version": 1, "connection": ');
      const port = await freePort();
      const agent = startAgent(
        [
          '--base-url',
          `http://127.0.0.1:${port}`,
          '--settings',
          settingsFile,
          '--data-dir',
          dataDir,
          '--status-every',
          '0',
        ],
        {
          ARCHIVE_API_KEY: h.adminKey,
          DESKTOP_ARCHIVE_DATA_DIR: dataDir,
          // A corrupt file means default settings (the OS keychain): no session bus, so no real keychain is touched.
          DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
          XDG_RUNTIME_DIR: join(dataDir, 'run'),
        },
      );
      await until('a status line', () => texts(agent).some((t) => t.startsWith('status: ')), agent, 20_000);
      agent.child.kill('SIGTERM');
      expect(await exitOf(agent)).toBe(0);

      const statuses = texts(agent).filter((t) => t.startsWith('status: '));
      expect(statuses.length).toBeGreaterThan(0);
      expect(
        statuses.filter((t) => !t.startsWith('status: offline (Cannot reach the service (ECONNREFUSED))')),
      ).toEqual([]);
      expect(texts(agent).filter((t) => t.includes(settingsFile) && /could not be used/.test(t))).toHaveLength(1);
      expect((await readdir(dataDir)).some((name) => name.startsWith('settings') && name.includes('corrupt'))).toBe(
        true,
      );
      expect(agent.stdout.filter((l) => !LINE.test(l))).toEqual([]);
      expect([...agent.stdout, ...agent.stderr].join('\n')).not.toContain(secretOf(h.adminKey));
    },
  );

  it('folds a multi-line message (a reminder summary, a stack) into one line and masks keys', () => {
    const at = new Date('2026-11-24T10:00:00.000Z');
    expect(agentLogLine('reminder: 2 reminders: Invoice A due 2026-12-01\nInvoice B due 2026-12-03\r\n', at)).toBe(
      '2026-11-24T10:00:00.000Z reminder: 2 reminders: Invoice A due 2026-12-01; Invoice B due 2026-12-03',
    );
    const key = `das_${'a'.repeat(32)}_${'S'.repeat(43)}`;
    const line = agentLogLine(`journal error: Error: boom ${key}\n    at x (y.ts:1:2)`, at);
    expect(line).toBe(`2026-11-24T10:00:00.000Z journal error: Error: boom das_${'a'.repeat(32)}_***; at x (y.ts:1:2)`);
    expect(line).not.toContain('\n');
  });
});

/** A port nothing listens on (taken, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
