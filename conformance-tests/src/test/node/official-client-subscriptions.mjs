// Subscribes through Hiro's published client (connectWebSocketClient of @stacks/blockchain-api-client,
// the exact version in package-lock.json) to what the plan names: blocks (lastHeight), the mempool,
// one transaction and one address (txId, address), microblocks (microblocks: how many), prints
// "ready" once every subscription is confirmed, then prints every notification the client handed to
// the callbacks, in arrival order, as one JSON array once the plan's last expected block,
// transaction state and microblock have arrived. OfficialClientSubscriptionsTest (Java) starts the
// server, posts node events after "ready" and checks the output.
import { readFileSync } from 'node:fs';
import { connectWebSocketClient } from '@stacks/blockchain-api-client';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const received = [];
let lastBlock = 0;
let txDone = !plan.txId;
let microblocks = 0;
let finish;
const done = new Promise(resolve => { finish = resolve; });
const check = () => {
  if (lastBlock >= (plan.lastHeight ?? 0) && txDone && microblocks >= (plan.microblocks ?? 0)) finish();
};

const client = await connectWebSocketClient(plan.wsUrl);
if (plan.lastHeight) {
  await client.subscribeBlocks(block => {
    received.push({ kind: 'block', value: block });
    lastBlock = Math.max(lastBlock, block.height);
    check();
  });
}
if (plan.txId) {
  await client.subscribeMempool(tx => received.push({ kind: 'mempool', value: tx }));
  await client.subscribeTxUpdates(plan.txId, tx => {
    received.push({ kind: 'tx', value: tx });
    if (tx.tx_status === plan.finalTxStatus) { txDone = true; check(); }
  });
  await client.subscribeAddressTransactions(plan.address, update => received.push({ kind: 'address', value: update }));
}
if (plan.microblocks) {
  await client.subscribeMicroblocks(microblock => {
    received.push({ kind: 'microblock', value: microblock });
    microblocks++;
    check();
  });
}
process.stdout.write('ready\n');

const timer = setTimeout(() => finish(), plan.timeoutMillis);
await done;
clearTimeout(timer);
// Anything that was already on its way.
await new Promise(r => setTimeout(r, 500));
process.stdout.write(JSON.stringify(received) + '\n');
client.webSocket.close();
process.exit(0);
