// Hiro's current published client (@stacks/blockchain-api-client 9.x, the exact version in
// package-lock.json) while new blocks arrive: subscribes through its WebSocket helpers
// (connectWebSocketClient: blocks, mempool, one transaction, one address), then walks each of the
// plan's histories page by page with client.GET, following the cursor the plan names, until the
// route gives none. OfficialClient9WalkTest (Java) posts node events to the server in between.
//
// Lines on stdout, one JSON object each: {kind:'ready'} once every subscription is confirmed;
// {kind:'page', walk, status, url, headers, body} per page; {kind:'walked', walk} after each walk;
// at the end {kind:'notifications', value:[…]}, everything the callbacks were handed, in order.
// Lines on stdin: 'go' before each page request (the test posts blocks before it answers), 'done'
// once the test has posted everything; the script then waits for the plan's last block and the
// watched transaction's final status.
//
// On Node.js without a global WebSocket (before 22) the client falls back to require('ws'), which the
// lock holds through socket.io-client's engine.io-client.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createClient, connectWebSocketClient } from '@stacks/blockchain-api-client';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const client = createClient({ baseUrl: plan.baseUrl });
const stdin = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = value => process.stdout.write(JSON.stringify(value) + '\n');
const next = async () => {
  const { value, done } = await stdin.next();
  if (done) throw new Error('the test closed stdin');
  return value;
};
const at = (object, pointer) =>
  pointer.split('/').slice(1).reduce((value, key) => (value == null ? undefined : value[key]), object);

const notifications = [];
let lastBlock = 0;
let txDone = !plan.txId;
let finish;
const finished = new Promise(resolve => { finish = resolve; });
const check = () => { if (lastBlock >= plan.lastHeight && txDone) finish(); };

const ws = await connectWebSocketClient(plan.baseUrl);
await ws.subscribeBlocks(block => {
  notifications.push({ kind: 'block', value: block });
  lastBlock = Math.max(lastBlock, block.height);
  check();
});
await ws.subscribeMempool(tx => notifications.push({ kind: 'mempool', value: tx }));
if (plan.txId) {
  await ws.subscribeTxUpdates(plan.txId, tx => {
    notifications.push({ kind: 'tx', value: tx });
    if (tx.tx_status === plan.finalTxStatus) { txDone = true; check(); }
  });
}
await ws.subscribeAddressTransactions(plan.principal, update => notifications.push({ kind: 'address', value: update }));
say({ kind: 'ready' });

for (const walk of plan.walks) {
  let cursor;
  do {
    if ((await next()) !== 'go') throw new Error('expected go');
    const query = { ...walk.query, ...(cursor ? { cursor } : {}) };
    const { data, error, response } = await client.GET(walk.path, { params: { path: walk.pathParams, query } });
    say({
      kind: 'page', walk: walk.name, status: response.status, url: response.url,
      headers: Object.fromEntries(response.headers.entries()), body: data ?? error ?? null,
    });
    cursor = data ? at(data, walk.follow) : null;
  } while (cursor);
  say({ kind: 'walked', walk: walk.name });
}
// The test answers every page with 'go'; the last one has no page to ask for.
while ((await next()) !== 'done') { /* a 'go' after the last page */ }

const timer = setTimeout(() => finish(), plan.timeoutMillis);
await finished;
clearTimeout(timer);
// Anything already on its way.
await new Promise(resolve => setTimeout(resolve, 500));
ws.webSocket.close();
// stdout is a pipe: exit once the (large) last line is flushed, not before.
process.stdout.write(JSON.stringify({ kind: 'notifications', value: notifications }) + '\n', () => process.exit(0));
