/**
 * The headless agent as a user sees it: its log (one timestamped line per file event, nothing twice), its status line,
 * a clean exit on SIGINT, flags that apply to one run only, and never the API key in its output. The agent runs as a
 * real child process (`main/core/agent/agent.ts`) against a real Archive Service in this process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { SETTINGS_VERSION } from '../../common/settings.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';

const AGENT = join(import.meta.dirname, '../../main/core/agent/agent.ts');

let h: Harness;
let tmp: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  // A 1 s window and two different limits, so the agent's client learns the raised limits at once (see agent-crash).
  h = await startHarness({ limits: { uploadsPerWindow: 100_000, requestsPerWindow: 200_000, windowMs: 1000 } });
  tmp = await mkdtemp(join(tmpdir(), 'agent-test-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await h?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface Agent { child: ChildProcess; stdout: string[]; stderr: string[]; exited: Promise<number | null> }

function startAgent(args: string[], env: Record<string, string>): Agent {
  const child = spawn(process.execPath, [AGENT, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const agent: Agent = {
    child, stdout: [], stderr: [],
    exited: new Promise((resolve) => child.once('exit', (code) => { children.delete(child); resolve(code); })),
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
  onTestFailed(() => console.log(`---- agent output ----\n${[...agent.stdout, ...agent.stderr.map((l) => `stderr: ${l}`)].join('\n')}`));
  return agent;
}

async function until(what: string, probe: () => boolean, agent: Agent, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (agent.child.exitCode !== null) throw new Error(`the agent exited (${agent.child.exitCode}) while waiting for ${what}`);
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

describe('headless agent', () => {
  it('leaves the settings file alone (flags are for this run) and exits cleanly on SIGINT', { timeout: 30_000 }, async () => {
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

    const agent = startAgent([
      '--base-url', h.url, '--folder', inbox, '--stability-ms', '200', '--settings', settingsFile, '--data-dir', dataDir,
      '--status-every', '0',
    ], { ARCHIVE_API_KEY: h.adminKey, DESKTOP_ARCHIVE_DATA_DIR: dataDir });
    await until('both files settled', () => texts(agent).some((t) => t.startsWith('uploaded: '))
      && texts(agent).some((t) => t.startsWith('failed: ')), agent);
    agent.child.kill('SIGINT');
    expect(await exitOf(agent)).toBe(0);

    // --base-url and --folder were for this run: the settings file is byte for byte what it was.
    expect(await readFile(settingsFile, 'utf8')).toBe(settingsBytes);
    // The journal is intact after SIGINT.
    const db = new DatabaseSync(join(dataDir, 'journal.sqlite'), { readOnly: true });
    try {
      expect(db.prepare('SELECT path, state FROM uploads ORDER BY path').all()).toEqual([
        { path: bad, state: 'failed' }, { path: good, state: 'done' },
      ]);
    } finally {
      db.close();
    }
  });

});
