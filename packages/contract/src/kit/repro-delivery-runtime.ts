// The JavaScript both files of a delivery replay run (the Node ES module, and httpyac's scripts,
// which run in Node): the receiver it starts, the wait for the delivery, and the judgement of it.
import type { DeliveryFault } from './repro-delivery-symptom.ts';
import { pointerExpression } from './repro-judge.ts';

/** How long a replay waits for the delivery unless SECMON_EVENT_TIMEOUT says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;

// The receiver and the wait, as JavaScript for both files (`http` is node:http).
export const RECEIVER = `/** Starts the receiver: it keeps each delivery's path, headers and raw bytes, and answers 204. */
function startReceiver(listen, publicUrl) {
  const deliveries = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      deliveries.push({ path: (req.url || "/").split("?")[0], headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  const [, host = "127.0.0.1", port = "0"] = /^(?:(.+):)?(\\d+)$/.exec(listen) || [];
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(port), host, () => {
      const local = "http://" + (host.includes(":") ? "[" + host + "]" : host) + ":" + server.address().port;
      resolve({ url: (publicUrl || local).replace(/\\/+$/, ""), deliveries, close: () => { server.closeAllConnections(); server.close(); } });
    });
  });
}`;

export const WAIT = `/** The deliveries of the event at the watched paths: once one came (and a moment for the rest), or when time is up. */
async function awaitDeliveries(receiver, watched, timeoutMs) {
  const eventOf = (d) => {
    try {
      const { event } = JSON.parse(d.raw.toString("utf8"));
      if (typeof event === "string") return event;
    } catch {}
    return d.headers["x-service-event"];
  };
  const found = () => receiver.deliveries.filter((d) => watched.paths.includes(d.path) && eventOf(d) === watched.event);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  for (const deadline = Date.now() + timeoutMs; found().length === 0 && Date.now() < deadline; ) await pause(100);
  if (found().length > 0) await pause(500);
  return found();
}`;

/** `faultIn(delivery, secret)`: whether one delivery shows the fault, computed as the document says (`crypto` is node:crypto). */
export function faultTest(fault: DeliveryFault): string {
  const body = (() => {
    if ('absent' in fault) return 'return false;';
    if ('signature' in fault && fault.signature === 'X-Service-Signature')
      return 'return header("x-service-signature") !== "sha256=" + hmac().update(delivery.raw).digest("hex");';
    if ('signature' in fault)
      return [
        'const signed = hmac().update(header("webhook-id") + "." + header("webhook-timestamp") + ".").update(delivery.raw);',
        '  return !(header("webhook-signature") || "").split(" ").includes("v1," + signed.digest("base64"));',
      ].join('\n');
    return [
      'let body;',
      '  try { body = JSON.parse(delivery.raw.toString("utf8")); } catch { return false; }',
      `  const object = ${pointerExpression(fault.missing.at)};`,
      `  return object != null && !(${JSON.stringify(fault.missing.name)} in object);`,
    ].join('\n');
  })();
  return `/** Whether a delivery shows the fault: what the kit expected against what came, with the replay's secret. */
function faultIn(delivery, secret) {
  const header = (name) => (typeof delivery.headers[name] === "string" ? delivery.headers[name] : undefined);
  const hmac = () => crypto.createHmac("sha256", Buffer.from(secret, "utf8"));
  ${body}
}
/** The fault is there: ${'absent' in fault ? 'no delivery came' : 'a delivery shows it'}. */
const reproducedBy = (delivered, secret) => ${'absent' in fault ? 'delivered.length === 0' : 'delivered.some((delivery) => faultIn(delivery, secret))'};`;
}
