// Requests no HTTP client library will send: a garbled request line, or headers that stop
// arriving. Written to the target's socket byte by byte; the answer is read until the target
// closes the connection (or `timeoutMs`), then parsed.
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface RawAnswer {
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the last byte sent to the first byte of the answer (or to the close). */
  answeredAfterMs: number;
  /** Whether the target closed the connection after answering. */
  closed: boolean;
}

export function rawRequest(baseUrl: string, bytes: string, timeoutMs: number): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket: Socket = url.protocol === 'https:' ? connectTls({ host, port, servername: host }) : connectTcp({ host, port });
    const chunks: Buffer[] = [];
    let sentAt = 0;
    let firstByteAt = 0;
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
      const raw = rest.join('\r\n\r\n');
      resolve({
        ...(Number.isFinite(status) ? { status } : {}),
        headers,
        body: /\bchunked\b/i.test(headers['transfer-encoding'] ?? '') ? dechunk(raw) : raw,
        answeredAfterMs: (firstByteAt || Date.now()) - sentAt,
        closed,
      });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      socket.write(bytes);
      sentAt = Date.now();
    });
    socket.on('data', (chunk: Buffer) => {
      firstByteAt ||= Date.now();
      chunks.push(chunk);
    });
    socket.on('end', () => {
      closed = true;
      finish();
    });
    socket.on('error', finish);
  });
}

/** The payload of a `Transfer-Encoding: chunked` body (RFC 9112 §7.1): size lines in hex, each chunk after its line. */
export function dechunk(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  const parts: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}
