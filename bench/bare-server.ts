// The floors of the HTTP benchmark: the same JSON bodies as the reference server, with no auth,
// validation, database or logging — `node:http` alone (the floor), or plain Express with its JSON
// body parser (`--express`: what Express itself costs). Started as a child by bench/http.ts with
// the bodies on stdin; prints its port.

import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';
import express from 'express';

const { list, read, created } = JSON.parse(await text(process.stdin)) as Record<'list' | 'read' | 'created', unknown>;

function nodeHttp() {
  const bodies = { list: JSON.stringify(list), read: JSON.stringify(read), created: JSON.stringify(created) };
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // Parsed as any JSON API parses its body, then answered.
      if (req.method === 'POST') JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const [status, body] =
        req.method === 'POST' ? [201, bodies.created] : req.url === '/v1/findings' ? [200, bodies.list] : [200, bodies.read];
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
}

function bareExpress() {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.get('/v1/findings', (_req, res) => res.json(list));
  app.get('/v1/findings/:id', (_req, res) => res.json(read));
  app.post('/v1/findings', (_req, res) => res.status(201).json(created));
  return createServer(app);
}

const server = (process.argv.includes('--express') ? bareExpress() : nodeHttp()).listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
