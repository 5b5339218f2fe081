import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocumentDetail } from '../../common/archive-types.ts';
import { writeLlmSetting, type StoredLlmSetting } from '../../server/intelligence/llm/llm-settings.ts';
import { mergeLlmFields } from '../../server/intelligence/llm/merge-llm-fields.ts';
import { verifyAnswer } from '../../server/intelligence/llm/verify-answer.ts';
import type { LlmAnswer } from '../../server/intelligence/llm/extraction-prompt.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

// Every name, number and phrase here is invented.
const INVOICE = [
  'Lindenhof Gartenbau GmbH',
  'Birkenweg 12, 34567 Musterstadt',
  'Rechnung',
  'Vorgang AX-77-310',
  'Datum: 03.03.2026',
  'Arbeiten im Garten laut Angebot',
  'Gesamtbetrag: 1.234,50 EUR',
  'Bitte ueberweisen Sie den Betrag bis 17.03.2026.',
  'Vielen Dank fuer Ihren Auftrag.',
];

const EMPTY_ANSWER: LlmAnswer = {
  sender_name: null,
  reference_number: null,
  document_date: null,
  due_date: null,
  amount: null,
  currency: null,
};

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
}
interface Call {
  body: ChatBody;
  authorization: string | undefined;
}
interface Reply {
  status?: number;
  answer?: unknown;
  delayMs?: number;
}

/** A small OpenAI-compatible chat endpoint on 127.0.0.1: answers what the test says, counts requests in flight. */
class FakeChatServer {
  readonly calls: Call[] = [];
  inFlight = 0;
  maxInFlight = 0;
  reply: (call: Call, index: number) => Reply = () => ({ answer: EMPTY_ANSWER });
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void (async () => {
        const call: Call = {
          body: JSON.parse(await readBody(req)) as ChatBody,
          authorization: req.headers.authorization,
        };
        const index = this.calls.push(call) - 1;
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const reply = this.reply(call, index);
        // A client that gives up (its timeout) ends the request here too, so nothing stays in flight after a test.
        if (reply.delayMs) {
          await new Promise<void>((done) => {
            const timer = setTimeout(done, reply.delayMs);
            res.once('close', () => {
              clearTimeout(timer);
              done();
            });
          });
        }
        this.inFlight--;
        if (res.destroyed) return;
        const status = reply.status ?? 200;
        const body =
          status === 200
            ? {
                id: 'chatcmpl-1',
                object: 'chat.completion',
                choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(reply.answer) } }],
              }
            : { error: { message: `fake failure ${status}` } };
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      })();
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  reset(): void {
    this.calls.length = 0;
    this.maxInFlight = 0;
    this.reply = () => ({ answer: EMPTY_ANSWER });
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => this.server?.close(() => done()));
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const chat = new FakeChatServer();
let h: Harness;
let modelCounter = 0;

/** Turns the extractor on for the harness's archive; each test gets its own model name (a fresh endpoint to the client). */
async function configure(overrides: Partial<Extract<StoredLlmSetting, { enabled: true }>> = {}): Promise<string> {
  const model = `fake-model-${++modelCounter}`;
  await writeLlmSetting(h.service.db, {
    enabled: true,
    base_url: chat.url,
    model,
    api_key_env: null,
    api_key: null,
    timeout_ms: 5000,
    concurrency: 4,
    ...overrides,
  });
  return overrides.model ?? model;
}

async function processInvoice(lines: string[] = INVOICE, name = 'scan.pdf'): Promise<ArchiveDocumentDetail> {
  // A line of its own per upload: the same bytes twice would be a duplicate, not processed again.
  const id = await uploadAndProcess(h, {
    bytes: await makePdf([...lines, `Ablage ${name.replace(/\W+/g, ' ')}`]),
    name,
  });
  const res = await h.api(`/v1/documents/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { document: ArchiveDocumentDetail }).document;
}

const fieldOf = (doc: ArchiveDocumentDetail, name: string) => doc.extracted_data[name];

beforeAll(async () => {
  await chat.start();
  // Three analysis processes: the concurrency limit must hold across them.
  h = await startHarness({ workers: 3, limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
});
afterAll(async () => {
  await h.close();
  await chat.close();
});
afterEach(async () => {
  chat.reset();
  await h.db.run("DELETE FROM settings WHERE key = 'llm_extractor'");
});

describe('language model extractor in the pipeline', () => {
  it("is off by default: no request, the rules' fields only", async () => {
    const doc = await processInvoice(INVOICE, 'off.pdf');
    expect(chat.calls).toHaveLength(0);
    expect(Object.values(doc.extracted_data).some((field) => (field as { source?: unknown }).source === 'llm')).toBe(
      false,
    );
    expect(doc.processing_note ?? '').not.toMatch(/language model/i);
  });

  it("fills fields with printed values, provenance llm; a confident rules' field stands", async () => {
    const model = await configure();
    chat.reply = () => ({
      answer: {
        ...EMPTY_ANSWER,
        reference_number: 'AX-77-310',
        due_date: '2026-03-17',
        // Printed, but the rules read a labelled document date with confidence: theirs stands.
        document_date: '2026-03-17',
      },
    });
    const doc = await processInvoice(INVOICE, 'fill.pdf');
    expect(chat.calls).toHaveLength(1);
    const { body, authorization } = chat.calls[0]!;
    expect(body.model).toBe(model);
    expect(body.response_format?.type).toBe('json_schema');
    expect(body.messages.map((m) => m.content).join('\n')).toContain('Vorgang AX-77-310');
    // The rules' candidates go along as hints.
    expect(body.messages.map((m) => m.content).join('\n')).toContain('Lindenhof Gartenbau GmbH');
    expect(authorization).toBeUndefined();

    expect(fieldOf(doc, 'reference_number')).toMatchObject({ value: 'AX-77-310', source: 'llm' });
    expect(fieldOf(doc, 'due_date')).toMatchObject({ value: '2026-03-17', source: 'llm' });
    expect(fieldOf(doc, 'document_date')).toMatchObject({ value: '2026-03-03', source: 'text' });
    expect(fieldOf(doc, 'amount')).toMatchObject({ value: { value: 1234.5, currency: 'EUR' }, source: 'text' });
  });

  it("drops every value the document does not print; the rules' values stand", async () => {
    await configure();
    chat.reply = () => ({
      answer: {
        sender_name: 'Nordwind Handel AG',
        reference_number: 'QX-5512',
        document_date: '2026-02-28',
        due_date: '2026-04-30',
        amount: 999.99,
        currency: 'EUR',
      },
    });
    const doc = await processInvoice(INVOICE, 'drop.pdf');
    expect(chat.calls).toHaveLength(1);
    expect(Object.values(doc.extracted_data).some((field) => (field as { source?: unknown }).source === 'llm')).toBe(
      false,
    );
    expect(fieldOf(doc, 'due_date')).toBeUndefined();
    expect(fieldOf(doc, 'reference_number')).toBeUndefined();
    expect(fieldOf(doc, 'amount')).toMatchObject({ value: { value: 1234.5, currency: 'EUR' }, source: 'text' });
    expect(fieldOf(doc, 'sender_name')).toMatchObject({ value: 'Lindenhof Gartenbau GmbH', source: 'text' });
    expect(doc.processing_note).toContain('not printed in the document were dropped');
    expect(doc.processing_note).toMatch(/amount/);
  });

  it('asks in plain JSON mode when the server refuses json_schema', async () => {
    await configure();
    chat.reply = (call) =>
      call.body.response_format?.type === 'json_schema'
        ? { status: 400 }
        : { answer: { ...EMPTY_ANSWER, reference_number: 'AX-77-310' } };
    const doc = await processInvoice(INVOICE, 'json-mode.pdf');
    expect(chat.calls.map((c) => c.body.response_format?.type)).toEqual(['json_schema', 'json_object']);
    expect(fieldOf(doc, 'reference_number')).toMatchObject({ value: 'AX-77-310', source: 'llm' });
  });

  it('retries after a 500 and uses the answer that follows', async () => {
    await configure();
    chat.reply = (_call, index) =>
      index === 0 ? { status: 500 } : { answer: { ...EMPTY_ANSWER, reference_number: 'AX-77-310' } };
    const doc = await processInvoice(INVOICE, 'retry.pdf');
    expect(chat.calls).toHaveLength(2);
    expect(fieldOf(doc, 'reference_number')).toMatchObject({ value: 'AX-77-310', source: 'llm' });
    expect(doc.processing_note ?? '').not.toMatch(/language model/i);
  });

  it("gives up after the retries; the rules' fields stand and the note says why", async () => {
    await configure();
    chat.reply = () => ({ status: 503 });
    const doc = await processInvoice(INVOICE, 'down.pdf');
    expect(chat.calls).toHaveLength(3);
    expect(doc.status).toBe('completed');
    expect(fieldOf(doc, 'amount')).toMatchObject({ value: { value: 1234.5 }, source: 'text' });
    expect(doc.processing_note).toContain('Language model extractor failed');
    expect(doc.processing_note).toContain('HTTP 503');
  });

  it("a slow answer runs out of its time, is not retried, and the rules' fields stand", async () => {
    await configure({ timeout_ms: 1000 });
    chat.reply = () => ({ delayMs: 2500, answer: { ...EMPTY_ANSWER, reference_number: 'AX-77-310' } });
    const started = performance.now();
    const doc = await processInvoice(INVOICE, 'slow.pdf');
    expect(performance.now() - started).toBeLessThan(2500);
    expect(chat.calls).toHaveLength(1);
    expect(fieldOf(doc, 'reference_number')).toBeUndefined();
    expect(fieldOf(doc, 'sender_name')).toMatchObject({ source: 'text' });
    expect(doc.processing_note).toContain('did not answer within 1000 ms');
  });

  it('holds the concurrency limit across analysis processes', async () => {
    await configure({ concurrency: 1 });
    chat.reply = () => ({ delayMs: 600, answer: EMPTY_ANSWER });
    const ids = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const res = await h.upload({ bytes: await makePdf([...INVOICE, `Kopie ${n}`]), name: `copy-${n}.pdf` });
        expect(res.status).toBe(202);
        return ((await res.json()) as { id: string }).id;
      }),
    );
    await h.service.processor.idle();
    expect(ids).toHaveLength(3);
    expect(chat.calls).toHaveLength(3);
    expect(chat.maxInFlight).toBe(1);
  });

  it('sends the API key from the named variable and never shows it; an unset variable is noted', async () => {
    const secret = 'sk-invented-0123456789';
    await configure({ api_key_env: 'LLM_EXTRACTOR_TEST_KEY' });
    process.env.LLM_EXTRACTOR_TEST_KEY = secret;
    try {
      chat.reply = () => ({ status: 500 });
      const doc = await processInvoice(INVOICE, 'key.pdf');
      expect(chat.calls[0]?.authorization).toBe(`Bearer ${secret}`);
      expect(JSON.stringify(doc)).not.toContain(secret);
    } finally {
      delete process.env.LLM_EXTRACTOR_TEST_KEY;
    }
    chat.reset();
    const doc = await processInvoice([...INVOICE, 'Zweitschrift'], 'no-key.pdf');
    expect(chat.calls).toHaveLength(0);
    expect(doc.processing_note).toContain('API key variable LLM_EXTRACTOR_TEST_KEY is not set');
  });

  it('llm off stops it', async () => {
    await configure();
    await writeLlmSetting(h.service.db, { enabled: false });
    await processInvoice([...INVOICE, 'Drittschrift'], 'after-off.pdf');
    expect(chat.calls).toHaveLength(0);
  });
});

describe('checking an answer against the document', () => {
  const verify = (answer: Partial<LlmAnswer>, text: string, rulesCurrency: string | null = null) =>
    verifyAnswer({ ...EMPTY_ANSWER, ...answer }, text, { today: '2026-11-25', rulesCurrency });

  it('finds an amount in any of the usual number formats', () => {
    for (const printed of ['Total 1.234,56 EUR', 'Total EUR 1,234.56', 'Total 1 234,56 EUR', "Total CHF 1'234.56"]) {
      const { fields } = verify({ amount: 1234.56, currency: printed.includes('CHF') ? 'CHF' : 'EUR' }, printed);
      expect(fields.amount, printed).toEqual({ value: 1234.56, currency: printed.includes('CHF') ? 'CHF' : 'EUR' });
    }
  });

  it('does not take part of a date for an amount', () => {
    expect(verify({ amount: 12.03, currency: 'EUR' }, 'Datum 12.03.2026\nSumme 40,00 EUR').dropped).toEqual(['amount']);
  });

  it("keeps the rules' currency when the model names one the document does not print", () => {
    expect(verify({ amount: 40, currency: 'USD' }, 'Summe 40,00 €', 'EUR').fields.amount).toEqual({
      value: 40,
      currency: 'EUR',
    });
  });

  it('reads dates day first and month first, and drops an unprinted one', () => {
    const text = 'Invoice date 04/03/2026\nDue 2026-05-01';
    expect(verify({ document_date: '2026-04-03', due_date: '2026-05-01' }, text).fields).toEqual({
      document_date: '2026-04-03',
      due_date: '2026-05-01',
    });
    expect(verify({ document_date: '2026-03-04' }, text).fields).toEqual({ document_date: '2026-03-04' });
    expect(verify({ due_date: '2026-05-02' }, text).dropped).toEqual(['due_date']);
  });

  it('finds the sender whatever the case and spacing; the reference only verbatim', () => {
    const text = 'ACME  Werkstatt KG\nBeleg-Nr. 2026/0815';
    expect(verify({ sender_name: 'Acme Werkstatt KG', reference_number: '2026/0815' }, text).fields).toEqual({
      sender_name: 'Acme Werkstatt KG',
      reference_number: '2026/0815',
    });
    expect(verify({ reference_number: '2026-0815' }, text).dropped).toEqual(['reference_number']);
  });
});

describe('merging verified values', () => {
  it("fills gaps and replaces weak rules' values; confident, structured and learned values stand", () => {
    const fields: Record<string, { value: unknown; source: string; confidence: number }> = {
      sender_name: { value: 'Printed Header Line', source: 'text', confidence: 0.4 },
      document_date: { value: '2026-03-03', source: 'text', confidence: 0.9 },
      // A person's correction stands even where its confidence is modest.
      reference_number: { value: 'R-1', source: 'learned', confidence: 0.6 },
      amount: { value: { value: -20, currency: 'EUR' }, source: 'text', confidence: 0.5 },
    };
    const set = mergeLlmFields(fields, {
      sender_name: 'Acme Werkstatt KG',
      document_date: '2026-03-04',
      reference_number: 'R-2',
      due_date: '2026-04-01',
      amount: { value: 25, currency: 'EUR' },
    });
    expect(set.sort()).toEqual(['amount', 'due_date', 'sender_name']);
    expect(fields.sender_name).toMatchObject({ value: 'Acme Werkstatt KG', source: 'llm' });
    expect(fields.document_date).toMatchObject({ value: '2026-03-03', source: 'text' });
    expect(fields.reference_number).toMatchObject({ value: 'R-1', source: 'learned' });
    // A credit note's amount keeps its sign.
    expect(fields.amount).toMatchObject({ value: { value: -25, currency: 'EUR' }, source: 'llm' });
  });
});

describe('archive CLI: llm', () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const CLI = join(ROOT, 'server/cli/archive.ts');

  function cli(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((done, reject) => {
      const archive = ['--data-dir', h.dataDir, ...(h.databaseUrl ? ['--database', h.databaseUrl] : [])];
      const child = spawn(process.execPath, [CLI, ...archive, ...args], {
        cwd: ROOT,
        env: { ...process.env, ARCHIVE_LLM_BASE_URL: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      child.once('error', reject);
      child.once('close', (code) => done({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });
  }

  it('sets, shows (never the key) and turns off; the service follows', async () => {
    const secret = 'sk-invented-stdin-key-42';
    const set = await cli(
      [
        'llm',
        'set',
        '--base-url',
        `${chat.url}/`,
        '--model',
        'tiny-model',
        '--api-key-stdin',
        '--timeout-ms',
        '4000',
        '--concurrency',
        '2',
      ],
      `${secret}\n`,
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Language model: on (set in this archive)');
    expect(set.stdout).toContain('stored in the archive (not shown)');
    const shown = await cli(['--json', 'llm', 'show']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      enabled: true,
      origin: 'archive',
      base_url: chat.url,
      model: 'tiny-model',
      api_key: { source: 'archive' },
      timeout_ms: 4000,
      concurrency: 2,
    });
    expect(set.stdout + shown.stdout + set.stderr + shown.stderr).not.toContain(secret);

    chat.reply = () => ({ answer: { ...EMPTY_ANSWER, reference_number: 'AX-77-310' } });
    const doc = await processInvoice([...INVOICE, 'Viertschrift'], 'cli-set.pdf');
    expect(chat.calls[0]?.authorization).toBe(`Bearer ${secret}`);
    expect(fieldOf(doc, 'reference_number')).toMatchObject({ source: 'llm' });

    const off = await cli(['llm', 'off']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('Language model: off (turned off in this archive)');
  });

  it('refuses bad arguments with a specific message and changes nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['llm', 'set', '--model', 'm'], /needs --base-url/],
      [['llm', 'set', '--base-url', 'ftp://host/v1', '--model', 'm'], /http or https/],
      [['llm', 'set', '--base-url', 'http://user:pw@127.0.0.1:1/v1', '--model', 'm'], /must not contain credentials/],
      [['llm', 'set', '--base-url', 'http://127.0.0.1:1/v1'], /needs a model name/],
      [
        ['llm', 'set', '--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', '--timeout-ms', '5'],
        /--timeout-ms must be a whole number from 1000/,
      ],
      [
        ['llm', 'set', '--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', '--concurrency', 'two'],
        /--concurrency must be a whole number/,
      ],
      [
        ['llm', 'set', '--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', '--api-key-env', 'K', '--api-key-stdin'],
        /one way/,
      ],
      [
        ['llm', 'set', '--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', '--api-key-env', 'NOT-A-NAME'],
        /environment variable name/,
      ],
      [['llm', 'set', '--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', '--api-key-stdin'], /read no key/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    const shown = await cli(['--json', 'llm', 'show']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ enabled: false, origin: 'none' });
  });
});
