// Requests Node's HTTP parser refuses never reach Express: without this, oversized headers get a
// bare `431` and a garbled request a bare `400` from Node itself. They get problem documents too.
import type { Socket } from 'node:net';
import { problem, type ProblemKind } from '../../lib/problems.ts';

export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset leaves no one to answer; a response already under way on this socket (Node keeps it in
  // `_httpMessage`, as its own default handler checks) cannot be replaced.
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const [kind, detail]: [ProblemKind, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers-too-large', 'The request header fields are larger than the server accepts (16 KiB in all).']
      : ['malformed-request', 'The request is not valid HTTP/1.1 and was not processed.'];
  // The parser gave up before the request line was known, so the instance is the root.
  const document = problem(kind, detail, '/');
  const body = JSON.stringify(document);
  socket.end(
    `HTTP/1.1 ${document.status} ${document.title}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
