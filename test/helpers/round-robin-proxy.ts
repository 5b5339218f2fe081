import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A minimal load balancer on 127.0.0.1: each request goes to the next upstream in turn (bodies streamed both ways),
 * as an HTTP load balancer in front of several service instances would. `served` counts requests per upstream so a
 * test can check that every instance took part.
 */
export interface RoundRobinProxy {
  url: string;
  readonly served: number[];
  close(): Promise<void>;
}

/** X-Forwarded-For as a balancer sends it: what the client sent, then the address the balancer saw. */
function forwardedFor(req: IncomingMessage): string {
  const sent = req.headers['x-forwarded-for'];
  const address = req.socket.remoteAddress ?? '';
  return sent ? `${Array.isArray(sent) ? sent.join(', ') : sent}, ${address}` : address;
}

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  if (upstreams.length === 0) throw new Error('a round-robin proxy needs at least one upstream');
  const targets = upstreams.map((url) => new URL(url));
  const served = targets.map(() => 0);
  const sockets = new Set<Socket>();
  // Idle upstream connections are dropped well before the service's 5 s keep-alive timeout, as a load balancer's idle
  // timeout must be, so a request is never sent on a connection the instance is closing (a 502 after a quiet spell).
  const agent = new Agent({ keepAlive: true, timeout: 2000 });
  let next = 0;

  const server: Server = createServer((req, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    served[index]!++;
    const target = targets[index]!;
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        agent,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host, 'x-forwarded-for': forwardedFor(req) },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' }).end('upstream unreachable');
      else res.destroy();
    });
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
