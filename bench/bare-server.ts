// The floor of the HTTP benchmark: plain Express answering the same JSON bodies as the reference
// server, with no auth, validation, database or logging. Started as a child by bench/http.ts with
// the bodies on stdin; prints its port.
import express from 'express';
import { text } from 'node:stream/consumers';

const { list, read, created } = JSON.parse(await text(process.stdin)) as Record<'list' | 'read' | 'created', unknown>;
const app = express();
app.use(express.json({ limit: '1mb' }));
app.get('/v1/findings', (_req, res) => res.json(list));
app.get('/v1/findings/:id', (_req, res) => res.json(read));
app.post('/v1/findings', (_req, res) => res.status(201).json(created));
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
