import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP proxy on 127.0.0.1 in front of a real Archive Service that injects faults: a 429 with Retry-After, a 503,
 * a reset connection, a stall (no answer at all), or the whole service being unreachable. A fault is chosen per request
 * by `plan`; everything else passes through untouched. It is the one fake in the client tests, and only for faults.
 */
export type Fault =
  | { kind: 'pass' }
  | { kind: 'status'; status: number; retryAfter?: number; body?: unknown }
  | { kind: 'reset' }
  | { kind: 'stall' };

export interface ProxiedRequest {
  method: string;
  path: string;
  index: number;
}

export interface FaultProxy {
  url: string;
  /** Every request that reached the proxy, in order. */
  readonly requests: ProxiedRequest[];
  /** Statuses answered (by the proxy or passed through from the service). */
  readonly statuses: number[];
  plan: (request: ProxiedRequest) => Fault;
  /** Refuse connections (the service is "offline") until `online()`. */
  offline(): Promise<void>;
  online(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(
  targetUrl: string,
  plan: FaultProxy['plan'] = () => ({ kind: 'pass' }),
): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const stalled = new Set<ServerResponse>();
  let port = 0;
  let server: Server;

  const proxy: FaultProxy = {
    url: '',
    requests: [],
    statuses: [],
    plan,
    async offline() {
      await closeServer();
    },
    async online() {
      server = makeServer();
      await listen(port);
    },
    async close() {
      await closeServer();
    },
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const info: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', index: proxy.requests.length };
    proxy.requests.push(info);
    const fault = proxy.plan(info);
    if (fault.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault.kind === 'stall') {
      stalled.add(res);
      req.resume();
      return;
    }
    if (fault.kind === 'status') {
      req.resume();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      proxy.statuses.push(fault.status);
      res.writeHead(fault.status, headers).end(
        JSON.stringify(
          fault.body ?? {
            success: false,
            error: fault.status === 429 ? 'Rate limit exceeded' : 'Service unavailable',
            ...(fault.status === 429 && fault.retryAfter !== undefined ? { retryAfter: fault.retryAfter } : {}),
          },
        ),
      );
      return;
    }
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        proxy.statuses.push(answer.statusCode ?? 0);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };

  const makeServer = () => {
    const s = createServer(handle);
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    return s;
  };

  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        proxy.url = `http://127.0.0.1:${port}`;
        resolve();
      });
    });

  const closeServer = () =>
    new Promise<void>((resolve) => {
      for (const res of stalled) res.destroy();
      stalled.clear();
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });

  server = makeServer();
  await listen(0);
  return proxy;
}
