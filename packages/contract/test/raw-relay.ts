// The fault proxy's front door: a TCP relay that hands each connection's bytes to the proxy's HTTP
// server, keeping a copy. When Node's parser refuses them (a garbled request, header fields over its
// limit) or they stall before the header fields end, the HTTP server would answer itself (a bare
// 400, a bare 431, its own time-out); instead the copy and whatever follows go to the upstream, so
// its answer is the one the client gets, after a fault's `raw` rewrite.
import type { Server } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';

/**
 * Rewrites the bytes of the upstream's answer to such a connection (undefined leaves them as they
 * are). The answer is whole once the upstream closes the connection, as it must after refusing one.
 */
export type RawRewrite = (answer: Buffer) => Buffer | undefined;

/** How long header fields may stall at the proxy before the connection goes to the upstream as it is. */
export const STALL_MS = 1_000;

export async function startRawRelay(
  http: Server,
  httpPort: number,
  upstream: URL,
  rewrite?: RawRewrite,
): Promise<{ port: number; close(): Promise<void> }> {
  const refused = new Map<number, (socket: Socket) => void>();
  const served = new WeakSet<Socket>();
  http.on('request', (req) => served.add(req.socket));
  http.on('clientError', (_error, socket: Socket) => {
    const handOver = served.has(socket) ? undefined : refused.get(socket.remotePort ?? 0);
    // Bytes of earlier requests on the connection would be sent twice: such a connection is dropped.
    if (handOver) handOver(socket);
    else socket.destroy();
  });
  const fronts = new Set<Socket>();
  const relay = createServer((front) => {
    fronts.add(front);
    const seen: Buffer[] = [];
    let outbound: Socket | undefined;
    const inner = connect(httpPort, '127.0.0.1');
    inner.on('connect', () => refused.set(inner.localPort ?? 0, handOver));
    front.on('data', (chunk: Buffer) => {
      if (outbound) outbound.write(chunk);
      else {
        seen.push(chunk);
        inner.write(chunk);
      }
    });
    inner.on('data', (chunk: Buffer) => outbound || front.write(chunk));
    inner.on('end', () => outbound || front.end());
    front.on('end', () => (outbound ? outbound.end() : inner.end()));
    const drop = () => {
      refused.delete(inner.localPort ?? 0);
      fronts.delete(front);
      inner.destroy();
      outbound?.destroy();
      front.destroy();
    };
    front.on('close', drop);
    front.on('error', drop);
    inner.on('error', () => outbound || drop());
    function handOver(socket: Socket): void {
      const upstreamSocket = connect(Number(upstream.port), upstream.hostname);
      outbound = upstreamSocket;
      socket.destroy();
      upstreamSocket.write(Buffer.concat(seen));
      const answer: Buffer[] = [];
      upstreamSocket.on('data', (chunk: Buffer) => answer.push(chunk));
      upstreamSocket.on('end', () => {
        const whole = Buffer.concat(answer);
        front.end(rewrite?.(whole) ?? whole);
      });
      upstreamSocket.on('error', drop);
    }
  });
  relay.listen(0, '127.0.0.1');
  await new Promise((resolve) => relay.once('listening', resolve));
  return {
    port: (relay.address() as { port: number }).port,
    close: async () => {
      for (const front of fronts) front.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
