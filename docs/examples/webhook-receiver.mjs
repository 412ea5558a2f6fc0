// A minimal webhook receiver that verifies signatures: node docs/examples/webhook-receiver.mjs <port>
// with WEBHOOK_SECRET set. Prints one line per delivery; answers 400 to a request whose signature is wrong.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.WEBHOOK_SECRET;
const port = Number(process.argv[2] ?? 4000);
const TOLERANCE_SECONDS = 300;

function verify(rawBody, header) {
  // X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
  const parts = Object.fromEntries(String(header).split(',').map((p) => p.split('=')));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) <= TOLERANCE_SECONDS;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

// What an event is about: a resource's `id` (call, contact, campaign...), or the endpoint a `webhook.test` pings.
function subjectOf(data) {
  const key = ['id', 'webhookEndpointId', 'messageId', 'conversationId'].find((k) => data?.[k] != null);
  return key ? `${key} ${data[key]}` : 'no id';
}

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8'); // verify the exact bytes, before any JSON.parse
    if (!verify(raw, req.headers['x-webhook-signature'])) {
      console.log(`rejected: bad signature (X-Webhook-Id ${req.headers['x-webhook-id']})`);
      res.writeHead(400).end();
      return;
    }
    const { event, data } = JSON.parse(raw);
    console.log(`verified ${event} for ${subjectOf(data)} (X-Webhook-Id ${req.headers['x-webhook-id']})`);
    res.writeHead(200).end('ok');
  });
}).listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
