// Requests Node's HTTP parser refuses never reach Express: without this, oversized headers get a
// bare `431`, a garbled request a bare `400` and a request that arrives too slowly a bare `408`
// from Node itself. They get problem documents too.
import type { Socket } from 'node:net';
import { type ProblemKind, problem } from '../../common/problems.ts';

export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset leaves no one to answer; a response already under way on this socket (Node keeps it in
  // `_httpMessage`) cannot be replaced. A request whose body was still arriving has a response
  // object that has sent nothing yet: that one can still be answered.
  const pending = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const [kind, detail] = describe(error.code);
  // The parser gave up before the request line was known, so the instance is the root.
  const document = problem(kind, detail, '/');
  const body = JSON.stringify(document);
  socket.end(
    `HTTP/1.1 ${document.status} ${document.title}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function describe(code: string | undefined): [ProblemKind, string] {
  if (code === 'HPE_HEADER_OVERFLOW')
    return ['headers-too-large', 'The request header fields are larger than the server accepts (16 KiB in all).'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return ['request-timeout', 'The request did not arrive in time and was not processed.'];
  return ['malformed-request', 'The request is not valid HTTP/1.1 and was not processed.'];
}
