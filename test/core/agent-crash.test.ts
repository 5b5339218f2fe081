/**
 * The headless agent survives `kill -9`: a 200-file ingest with the agent killed at random points and restarted ends
 * with every file in the archive exactly once and every after-upload action (a move) done exactly once; a file that is
 * still being written is taken once, whole. The agent runs as a real child process (`main/core/agent/agent.ts`)
 * against a real Archive Service in this process.
 *
 * AGENT_CRASH_SEED=<n> repeats a run's kill points (every run prints its seed); AGENT_CRASH_LOG=1 prints the agents'
 * output as it comes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { link, mkdir, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { SETTINGS_VERSION } from '../../common/settings.ts';
import { parseAgentArgs } from '../../main/core/agent/agent-args.ts';
import { JournalStore } from '../../main/core/uploads/journal-store.ts';
import { LEARNABLE_HIGH_LIMITS, makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';

const AGENT = join(import.meta.dirname, '../../main/core/agent/agent.ts');
const REJECTING_HANDLER = join(import.meta.dirname, 'agent-unhandled-rejection.ts');
const FILES = 200;
const KILLS = 4;

let h: Harness;
let tmp: string;
const agents = new Set<Agent>();

beforeAll(async () => {
  h = await startHarness({ limits: LEARNABLE_HIGH_LIMITS });
  tmp = await mkdtemp(join(tmpdir(), 'agent-crash-'));
});

afterAll(async () => {
  await Promise.all(
    [...agents].map(async (agent) => {
      agent.child.kill('SIGKILL');
      await agent.exited;
    }),
  );
  await h?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// ---- helpers -------------------------------------------------------------------------------------------------------

/** mulberry32: a tiny seeded PRNG, so a failing run's kill points can be repeated. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Agent {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

interface AgentSetup {
  folder: string;
  dataDir: string;
  after?: string;
  stabilityMs?: number;
}

function agentArgs(setup: AgentSetup): string[] {
  return [
    '--base-url',
    h.url,
    '--folder',
    setup.folder,
    '--after',
    setup.after ?? 'keep',
    ...(setup.stabilityMs === undefined ? [] : ['--stability-ms', String(setup.stabilityMs)]),
    '--settings',
    join(setup.dataDir, 'settings.json'),
    '--data-dir',
    setup.dataDir,
    '--status-every',
    '0',
  ];
}

async function prepareDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  // The key comes from ARCHIVE_API_KEY; key_storage 'file' keeps every start from probing the user's real keychain
  // (the key file is only touched when a key is stored, which the agent does not do here).
  await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: SETTINGS_VERSION, key_storage: 'file' }));
}

/**
 * `<label>-in` with `count` distinct PDFs `<prefix>NNN.pdf`, an empty `<label>-out`, a prepared `<label>-data`;
 * `expected` maps each file name to its SHA-256.
 */
async function prepareIngest(label: string, prefix: string, count: number, lines: (i: number) => string[]) {
  const inbox = join(tmp, `${label}-in`);
  const done = join(tmp, `${label}-out`);
  const dataDir = join(tmp, `${label}-data`);
  await mkdir(inbox, { recursive: true });
  await mkdir(done, { recursive: true });
  await prepareDataDir(dataDir);
  const expected = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const name = `${prefix}${String(i).padStart(3, '0')}.pdf`;
    const bytes = await makePdf([...lines(i), tmp]);
    await writeFile(join(inbox, name), bytes);
    expected.set(name, sha256(bytes));
  }
  return { inbox, done, dataDir, expected };
}

/** `nodeArgs` go to Node before the agent's script (a fault module with --import). */
function startAgent(setup: AgentSetup, label: string, nodeArgs: string[] = []): Agent {
  const child = spawn(process.execPath, [...nodeArgs, AGENT, ...agentArgs(setup)], {
    env: { ...process.env, ARCHIVE_API_KEY: h.adminKey, DESKTOP_ARCHIVE_DATA_DIR: setup.dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (stream: NodeJS.ReadableStream | null, prefix: string) => {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(`${prefix}${line}`);
        if (process.env.AGENT_CRASH_LOG) console.log(`[${label}] ${prefix}${line}`);
      }
    });
  };
  collect(child.stdout, '');
  collect(child.stderr, 'stderr: ');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const agent: Agent = { child, lines, exited };
  agents.add(agent);
  void exited.then(() => agents.delete(agent));
  return agent;
}

/** Waits for an agent's exit, bounded: one that does not exit is killed and reported. */
async function exitOf(agent: Agent, ms = 15_000): Promise<number | null> {
  const timer = setTimeout(() => agent.child.kill('SIGKILL'), ms);
  try {
    return await agent.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` until it is truthy; fails at the deadline or when the agent died on its own. */
async function until<T>(
  what: string | (() => string),
  probe: () => T | false | undefined | Promise<T | false | undefined>,
  options: { ms: number; agent?: Agent; every?: number },
): Promise<T> {
  const deadline = Date.now() + options.ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (options.agent && options.agent.child.exitCode !== null) {
      throw new Error(`the agent exited (code ${options.agent.child.exitCode}) while waiting for ${whatOf(what)}`);
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${options.ms} ms waiting for ${whatOf(what)}`);
    await sleep(options.every ?? 50);
  }
}

const whatOf = (what: string | (() => string)): string => (typeof what === 'string' ? what : what());

/** Documents whose file name starts with `prefix` (each test has its own names). */
const documentCount = (prefix: string): number =>
  (
    h.sqlite.prepare('SELECT count(*) AS n FROM documents WHERE original_filename LIKE ?').get(`${prefix}%`) as {
      n: number;
    }
  ).n;

interface JournalRow {
  path: string;
  state: string;
  sha256: string | null;
  document_id: string | null;
  after_upload: string | null;
}

function journalRows(dataDir: string): JournalRow[] {
  const db = new DatabaseSync(join(dataDir, 'journal.sqlite'), { readOnly: true });
  try {
    return db
      .prepare('SELECT path, state, sha256, document_id, after_upload FROM uploads ORDER BY id')
      .all() as unknown as JournalRow[];
  } finally {
    db.close();
  }
}

/** Prints the agents' output of a failed test: what they did before and after each kill. */
function dumpOnFailure(runs: Array<{ label: string; agent: Agent }>): void {
  onTestFailed(() => {
    for (const { label, agent } of runs) {
      console.log(`---- ${label} (last 40 lines of ${agent.lines.length}) ----\n${agent.lines.slice(-40).join('\n')}`);
    }
  });
}

// ---- tests ---------------------------------------------------------------------------------------------------------

describe('headless agent under kill -9', () => {
  it(
    `ingests ${FILES} files across ${KILLS} kills: each archived once, each moved once`,
    { timeout: 90_000 },
    async () => {
      const seed = Number(process.env.AGENT_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
      const random = seededRandom(seed);
      const { inbox, done, dataDir, expected } = await prepareIngest('crash', 'scan-', FILES, (i) => [
        `Crash test document ${i}`,
        `seed ${seed}`,
      ]);
      expect(new Set(expected.values()).size).toBe(FILES);

      // Kill points by progress, not by wall time, so they fall inside the ingest however fast the machine is: after
      // about 40, 80, 120, 160 uploads (±8), then 0–80 ms more, so the kill lands in any step of the items in flight
      // (hashing, uploading, between accept and move, inside the move).
      const plan = Array.from({ length: KILLS }, (_, i) => ({
        afterDocuments: 40 * (i + 1) + Math.floor(random() * 17) - 8,
        extraMs: Math.floor(random() * 80),
      }));
      console.log(
        `agent-crash: seed ${seed} (AGENT_CRASH_SEED=${seed} repeats it); kills after ` +
          plan.map((k) => `${k.afterDocuments} documents + ${k.extraMs} ms`).join(', '),
      );

      const setup: AgentSetup = { folder: inbox, dataDir, after: `move:${done}`, stabilityMs: 200 };
      const runs: Array<{ label: string; agent: Agent }> = [];
      dumpOnFailure(runs);
      const started = Date.now();
      for (const [i, kill] of plan.entries()) {
        const agent = startAgent(setup, `run ${i + 1}`);
        runs.push({
          label: `run ${i + 1} (killed after ${kill.afterDocuments} documents + ${kill.extraMs} ms)`,
          agent,
        });
        await until(
          `${kill.afterDocuments} documents (run ${i + 1})`,
          () => documentCount('scan-') >= kill.afterDocuments,
          { ms: 20_000, agent, every: 5 },
        );
        await sleep(kill.extraMs);
        agent.child.kill('SIGKILL');
        await exitOf(agent);
      }
      const last = startAgent(setup, 'final run');
      runs.push({ label: 'final run', agent: last });
      let progress = '';
      await until(
        () => `every file moved (${progress})`,
        async () => {
          const [left, moved] = await Promise.all([readdir(inbox, { recursive: true }), readdir(done)]);
          progress = `${left.length} left in the inbox, ${moved.length} moved, ${documentCount('scan-')} documents`;
          return left.length === 0 && moved.length >= FILES;
        },
        { ms: 30_000, agent: last, every: 100 },
      );
      last.child.kill('SIGTERM');
      expect(await exitOf(last)).toBe(0);
      console.log(
        `agent-crash: ${KILLS} kills, ${documentCount('scan-')} documents for ${FILES} files, ${Date.now() - started} ms`,
      );

      // The archive: each file's content exactly once among the originals; every further upload (a retry of an upload
      // the kill interrupted after the service took it) was answered as a duplicate of the original.
      const originals = h.sqlite
        .prepare(
          `SELECT sha256, count(*) AS n FROM documents WHERE duplicate_of IS NULL
      AND original_filename LIKE 'scan-%' GROUP BY sha256`,
        )
        .all() as Array<{ sha256: string; n: number }>;
      expect(originals.filter((o) => o.n !== 1)).toEqual([]);
      expect(originals.map((o) => o.sha256).sort()).toEqual([...expected.values()].sort());
      const duplicates = h.sqlite
        .prepare(
          `SELECT d.sha256 AS sha256, o.sha256 AS original FROM documents d
      JOIN documents o ON o.id = d.duplicate_of WHERE d.duplicate_of IS NOT NULL AND d.original_filename LIKE 'scan-%'`,
        )
        .all() as Array<{ sha256: string; original: string }>;
      expect(duplicates.filter((d) => d.sha256 !== d.original)).toEqual([]);
      expect(originals.length + duplicates.length).toBe(documentCount('scan-'));

      // The files: all moved, each exactly once (no "name (2).pdf", no leftovers), unchanged.
      expect(await readdir(inbox, { recursive: true })).toEqual([]);
      expect((await readdir(done)).sort()).toEqual([...expected.keys()].sort());
      for (const [name, hash] of expected) expect(sha256(await readFile(join(done, name))), name).toBe(hash);

      // The journal: one row per file, all done, each move recorded as made (or, after a kill between the move and its
      // record, as already made: the file was no longer in the inbox).
      const rows = journalRows(dataDir);
      expect(rows.map((r) => r.path).sort()).toEqual([...expected.keys()].map((n) => join(inbox, n)).sort());
      const unexpected = rows.filter((r) => {
        const name = r.path.slice(inbox.length + 1);
        return (
          r.state !== 'done' ||
          r.sha256 !== expected.get(name) ||
          r.document_id === null ||
          (r.after_upload !== `moved to ${join(done, name)}` && r.after_upload !== `move: File not found: ${r.path}`)
        );
      });
      expect(unexpected).toEqual([]);
      const alreadyGone = rows.filter((r) => r.after_upload?.startsWith('move: File not found')).length;
      expect(alreadyGone).toBeLessThanOrEqual(KILLS);
    },
  );

  it('a kill between the move’s hard link and its unlink: the restart completes the move without a copy', async () => {
    // The state the agent leaves when killed inside after-upload.ts between link() and unlink(): the item accepted
    // in the journal, the file under both names. Made by hand, as that window is microseconds wide.
    const inbox = join(tmp, 'link-in');
    const done = join(tmp, 'link-out');
    const dataDir = join(tmp, 'link-data');
    await mkdir(inbox, { recursive: true });
    await mkdir(done, { recursive: true });
    await prepareDataDir(dataDir);
    const bytes = await makePdf(['Killed between link and unlink', tmp]);
    const file = join(inbox, 'linked.pdf');
    await writeFile(file, bytes);
    const uploaded = (await (await h.upload({ bytes, name: 'linked.pdf' })).json()) as { id: string };
    const setup: AgentSetup = { folder: inbox, dataDir, after: `move:${done}`, stabilityMs: 200 };
    const folderId = parseAgentArgs(agentArgs(setup)).folders![0]!.id;
    const info = await stat(file);
    const store = new JournalStore(join(dataDir, 'journal.sqlite'));
    try {
      const row = store.insert(
        {
          source: 'folder',
          folder_id: folderId,
          path: file,
          relative_path: 'linked.pdf',
          file_name: 'linked.pdf',
          size: info.size,
          mtime_ms: info.mtimeMs,
          space_id: null,
          metadata: {},
        },
        Date.now(),
      );
      store.update(row.id, { state: 'accepted', sha256: sha256(bytes), document_id: uploaded.id }, Date.now());
    } finally {
      store.close();
    }
    await link(file, join(done, 'linked.pdf'));
    const documentsBefore = documentCount('linked');

    const agent = startAgent(setup, 'link');
    dumpOnFailure([{ label: 'link', agent }]);
    await until('the move completed', async () => (await readdir(inbox)).length === 0, { ms: 15_000, agent });
    agent.child.kill('SIGTERM');
    expect(await exitOf(agent)).toBe(0);
    expect(await readdir(done)).toEqual(['linked.pdf']);
    expect(journalRows(dataDir)).toEqual([
      {
        path: file,
        state: 'done',
        sha256: sha256(bytes),
        document_id: uploaded.id,
        after_upload: `moved to ${join(done, 'linked.pdf')}`,
      },
    ]);
    expect(documentCount('linked')).toBe(documentsBefore); // accepted before the kill: not uploaded again
  });

  it('a file written in chunks over 5 s is uploaded once, whole', { timeout: 40_000 }, async () => {
    const inbox = join(tmp, 'slow-in');
    const dataDir = join(tmp, 'slow-data');
    await mkdir(inbox, { recursive: true });
    await prepareDataDir(dataDir);
    // The default stability window (2 s); the writer pauses 250 ms between chunks, so only the whole file is stable.
    const agent = startAgent({ folder: inbox, dataDir }, 'slow');
    dumpOnFailure([{ label: 'slow', agent }]);
    await until('the first scan', () => agent.lines.some((l) => l.includes('watcher: scanned')), { ms: 15_000, agent });

    const lines = Array.from({ length: 40 }, (_, i) => `Line ${i} of a slowly written scan ${tmp}`);
    const bytes = await makePdf(lines);
    const chunks = 21;
    const chunkSize = Math.ceil(bytes.length / chunks);
    const file = join(inbox, 'slow.pdf');
    const handle = await open(file, 'w');
    const writeStarted = Date.now();
    try {
      for (let i = 0; i < chunks; i++) {
        if (i > 0) await sleep(250);
        await handle.write(bytes.subarray(i * chunkSize, (i + 1) * chunkSize));
      }
    } finally {
      await handle.close();
    }
    const writeMs = Date.now() - writeStarted;
    expect(writeMs).toBeGreaterThanOrEqual(5000);

    const whole = sha256(bytes);
    expect(sha256(await readFile(file))).toBe(whole);
    const archived = () =>
      h.sqlite
        .prepare(`SELECT id, sha256, size_bytes FROM documents WHERE original_filename = 'slow.pdf'`)
        .all() as Array<{ id: string; sha256: string; size_bytes: number }>;
    // The journal, not the archive, is the finish line: the service stores the document a moment before the agent reads the answer.
    await until('the upload recorded as done', () => journalRows(dataDir).some((r) => r.state === 'done'), {
      ms: 15_000,
      agent,
    });
    agent.child.kill('SIGTERM');
    expect(await exitOf(agent)).toBe(0);
    // Any upload of a partial file would have come before the whole one: by now it would be here.
    expect(archived()).toEqual([{ id: expect.any(String), sha256: whole, size_bytes: bytes.length }]);
    const rows = journalRows(dataDir);
    expect(rows).toEqual([
      { path: file, state: 'done', sha256: whole, document_id: archived()[0]!.id, after_upload: 'kept' },
    ]);
  });
});

describe('headless agent and an unhandled rejection', () => {
  it(
    'logs it with its stack, closes the journal and the cache, exits 1, and the restart loses nothing',
    { timeout: 60_000 },
    async () => {
      const { inbox, done, dataDir, expected } = await prepareIngest('reject', 'reject-', 20, (i) => [
        `Unhandled rejection test ${i}`,
      ]);
      const setup: AgentSetup = { folder: inbox, dataDir, after: `move:${done}`, stabilityMs: 200 };
      const failing = startAgent(setup, 'rejecting', ['--import', REJECTING_HANDLER]);
      const runs = [{ label: 'rejecting', agent: failing }];
      dumpOnFailure(runs);
      expect(await exitOf(failing, 30_000)).toBe(1);
      const report = failing.lines.find((l) =>
        l.includes('agent: unhandled rejection: Error: injected: a handler of uploads.item rejected'),
      );
      expect(report, 'the rejection is logged').toBeDefined();
      expect(report).toContain('agent-unhandled-rejection.ts'); // its stack
      // Closed, not abandoned: SQLite removes a database's write-ahead log when its last connection closes.
      for (const db of ['journal.sqlite', 'library.sqlite']) {
        expect(
          await stat(join(dataDir, `${db}-wal`)).then(
            () => 'still there',
            () => 'removed',
          ),
          `${db}-wal`,
        ).toBe('removed');
        const check = new DatabaseSync(join(dataDir, db), { readOnly: true });
        expect(check.prepare('PRAGMA integrity_check').get(), db).toEqual({ integrity_check: 'ok' });
        check.close();
      }

      const restarted = startAgent(setup, 'restarted');
      runs.push({ label: 'restarted', agent: restarted });
      await until(
        'every file moved',
        async () => (await readdir(inbox)).length === 0 && (await readdir(done)).length >= expected.size,
        { ms: 30_000, agent: restarted, every: 100 },
      );
      restarted.child.kill('SIGTERM');
      expect(await exitOf(restarted)).toBe(0);
      const originals = h.sqlite
        .prepare(
          `SELECT sha256, count(*) AS n FROM documents WHERE duplicate_of IS NULL
      AND original_filename LIKE 'reject-%' GROUP BY sha256`,
        )
        .all() as Array<{ sha256: string; n: number }>;
      expect(originals.filter((o) => o.n !== 1)).toEqual([]);
      expect(originals.map((o) => o.sha256).sort()).toEqual([...expected.values()].sort());
      expect((await readdir(done)).sort()).toEqual([...expected.keys()].sort());
      expect(journalRows(dataDir).filter((r) => r.state !== 'done')).toEqual([]);
    },
  );
});
