// A minimal function-tool server that verifies signatures: node docs/examples/tool-receiver.mjs <port>
// with TOOL_SECRET set (the tool's `secret`). Answers each verified call with a result the assistant hears;
// answers 401 to a request whose signature is wrong or stale.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.TOOL_SECRET;
const port = Number(process.argv[2] ?? 4001);
const TOLERANCE_SECONDS = 300;

function verify(rawBody, header) {
  // X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
  const parts = Object.fromEntries(String(header).split(',').map((p) => p.split('=')));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) <= TOLERANCE_SECONDS;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8'); // verify the exact bytes, before any JSON.parse
    if (!verify(raw, req.headers['x-webhook-signature'])) {
      console.log(`rejected: bad signature (X-Webhook-Id ${req.headers['x-webhook-id']})`);
      res.writeHead(401).end();
      return;
    }
    const { toolCallId, name, arguments: args, call } = JSON.parse(raw);
    console.log(`verified ${name} (${toolCallId}) for call ${call.id}`);
    // Whatever you put in `result` is what the assistant hears; answer within the tool's timeoutSeconds.
    const result = { tool: name, echo: args, answer: `Order ${args.orderId ?? '?'} has shipped.` };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }));
  });
}).listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
