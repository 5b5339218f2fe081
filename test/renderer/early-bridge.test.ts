/**
 * The bridge taking over index.html's early start (renderer/src/early-start.ts): the socket it opened and the answers
 * to the calls it sent, whatever state the socket is in when the app's scripts get there. The sockets are fakes: what
 * is tested is the hand-over at each moment, which a real socket cannot be stopped at.
 */
import { describe, expect, it } from 'vitest';
import { defaultFilters, pageQuery } from '../../renderer/src/lib/library-query.ts';
import {
  createWebDesktop,
  SessionEndedError,
  type EarlyBridge,
  type SocketLike,
} from '../../renderer/src/lib/web-desktop.ts';

const HOST = '127.0.0.1:9';
const TOKEN = 't0ken';
const URL = `ws://${HOST}/ipc?token=${TOKEN}`;
const LOCATION = { host: HOST, hash: `#token=${TOKEN}`, pathname: '/', search: '' };
const FIRST_PAGE = pageQuery(defaultFilters(), 0);
const EARLY_CALLS = [
  { id: -1, call: 'settings.get' },
  { id: -2, call: 'library.list', input: FIRST_PAGE },
];

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Array<{ id: number; call: string; input?: unknown }> = [];
  onopen: ((event: never) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: never) => void) | null = null;

  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; call: string; input?: unknown });
  }
  close(): void {
    this.drop();
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(undefined as never);
  }
  answer(id: number, result: unknown): void {
    this.onmessage?.({ data: JSON.stringify({ id, ok: true, result }) });
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

const answerFrame = (id: number, result: unknown) => ({ data: JSON.stringify({ id, ok: true, result }) });
const page = { items: [], total: 0 };
const settings = { version: 2 };

/** A bridge over `early`; the sockets it opens itself are kept in `opened`. */
function bridge(
  early: EarlyBridge | null,
  checkToken: () => Promise<'valid' | 'refused' | 'unknown'> = async () => 'valid',
  earlyAnswersMs?: number,
) {
  const opened: FakeSocket[] = [];
  const desktop = createWebDesktop(LOCATION, {
    early,
    storage: null,
    history: null,
    checkToken,
    retryMs: { first: 1, max: 2 },
    earlyAnswersMs,
    connect: () => {
      const socket = new FakeSocket();
      opened.push(socket);
      return socket;
    },
  });
  return { desktop, opened };
}

/** An early start whose socket opened and sent the early calls, and received `messages` before the bridge existed. */
function openedEarlyStart(messages: EarlyBridge['messages']): { socket: FakeSocket; early: EarlyBridge } {
  const socket = new FakeSocket();
  socket.readyState = 1;
  socket.sent.push(...EARLY_CALLS);
  return { socket, early: { url: URL, socket, calls: EARLY_CALLS, opened: true, messages, closed: null } };
}

describe("the bridge adopts index.html's early start", () => {
  it('answers the early calls from what arrived before it existed, on the same socket, asking nothing again', async () => {
    const { socket, early } = openedEarlyStart([answerFrame(-2, page)]);
    const { desktop, opened } = bridge(early);
    try {
      const first = desktop['library.list'](FIRST_PAGE);
      const prefs = desktop['settings.get']();
      socket.answer(-1, settings);
      await expect(first).resolves.toEqual(page);
      await expect(prefs).resolves.toEqual(settings);
      // Another page is a call of the bridge's own, on the adopted socket.
      const second = desktop['library.list'](pageQuery(defaultFilters(), 1));
      await Promise.resolve();
      expect(socket.sent.map((frame) => [frame.id, frame.call])).toEqual([
        [-1, 'settings.get'],
        [-2, 'library.list'],
        [1, 'library.list'],
      ]);
      socket.answer(1, page);
      await expect(second).resolves.toEqual(page);
      expect(opened).toEqual([]);
    } finally {
      desktop.close();
    }
  });

  it('early answers not taken in time are dropped: a later identical call asks the app again', async () => {
    const { socket, early } = openedEarlyStart([answerFrame(-2, { items: [], total: 1 })]);
    const { desktop } = bridge(early, undefined, 20);
    try {
      await new Promise((resolve) => setTimeout(resolve, 40));
      const later = desktop['library.list'](FIRST_PAGE);
      await Promise.resolve();
      expect(socket.sent.map((frame) => [frame.id, frame.call])).toEqual([
        [-1, 'settings.get'],
        [-2, 'library.list'],
        [1, 'library.list'],
      ]);
      socket.answer(1, page);
      await expect(later).resolves.toEqual(page);
    } finally {
      desktop.close();
    }
  });

  it('a socket not yet open when adopted sent nothing: the calls go out from the bridge once it opens', async () => {
    const socket = new FakeSocket();
    const early: EarlyBridge = { url: URL, socket, calls: EARLY_CALLS, opened: false, messages: [], closed: null };
    const { desktop, opened } = bridge(early);
    try {
      const prefs = desktop['settings.get']();
      socket.open();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(socket.sent).toEqual([{ id: 1, call: 'settings.get' }]);
      socket.answer(1, settings);
      await expect(prefs).resolves.toEqual(settings);
      expect(opened).toEqual([]);
    } finally {
      desktop.close();
    }
  });

  it('a token refused before the bridge existed still ends in "the app was restarted", without retrying', async () => {
    const socket = new FakeSocket();
    socket.readyState = 3;
    let checks = 0;
    const early: EarlyBridge = {
      url: URL,
      socket,
      calls: EARLY_CALLS,
      opened: false,
      messages: [],
      closed: { code: 1006, reason: '' },
    };
    const { desktop, opened } = bridge(early, async () => {
      checks += 1;
      return 'refused';
    });
    try {
      await expect(desktop['library.list'](FIRST_PAGE)).rejects.toBeInstanceOf(SessionEndedError);
      await expect(desktop['settings.get']()).rejects.toBeInstanceOf(SessionEndedError);
      expect(checks).toBe(1);
      expect(opened).toEqual([]);
    } finally {
      desktop.close();
    }
  });

  it('an early call lost with its socket is asked again on the socket that replaces it', async () => {
    const socket = new FakeSocket();
    socket.readyState = 1;
    const early: EarlyBridge = { url: URL, socket, calls: EARLY_CALLS, opened: true, messages: [], closed: null };
    const { desktop, opened } = bridge(early);
    try {
      const first = desktop['library.list'](FIRST_PAGE);
      socket.drop();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(opened).toHaveLength(1);
      opened[0]!.open();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(opened[0]!.sent).toEqual([{ id: 1, call: 'library.list', input: FIRST_PAGE }]);
      opened[0]!.answer(1, page);
      await expect(first).resolves.toEqual(page);
    } finally {
      desktop.close();
    }
  });

  it('an early start for another address (another token) is closed, not adopted', async () => {
    const socket = new FakeSocket();
    socket.readyState = 1;
    const early: EarlyBridge = {
      url: `ws://${HOST}/ipc?token=other`,
      socket,
      calls: EARLY_CALLS,
      opened: true,
      messages: [answerFrame(-1, { version: 'stale' })],
      closed: null,
    };
    const { desktop, opened } = bridge(early);
    try {
      expect(socket.readyState).toBe(3);
      expect(opened).toHaveLength(1);
      const prefs = desktop['settings.get']();
      opened[0]!.open();
      await new Promise((resolve) => setTimeout(resolve, 0));
      opened[0]!.answer(1, settings);
      await expect(prefs).resolves.toEqual(settings);
    } finally {
      desktop.close();
    }
  });
});
