// Calls our server through Hiro's published TypeScript client (@stacks/blockchain-api-client, the
// exact version in package-lock.json), one typed method per operation of spec/openapi.yaml, and
// prints what the client returned as one JSON object. OfficialClientTest (Java) starts the server,
// writes the plan (argv[2]) and checks the output against the server's own answers and the demo chain.
import { readFileSync } from 'node:fs';
import {
  Configuration,
  InfoApi,
  BlocksApi,
  TransactionsApi,
  SmartContractsApi,
} from '@stacks/blockchain-api-client';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const config = new Configuration({ basePath: plan.baseUrl });
const info = new InfoApi(config);
const blocks = new BlocksApi(config);
const transactions = new TransactionsApi(config);
const contracts = new SmartContractsApi(config);

const calls = {
  getStatus: () => info.getStatus(),
  getBlock: () => blocks.getBlock({ heightOrHash: plan.blockHeight }),
  getBlockByHash: () => blocks.getBlock({ heightOrHash: plan.blockHash }),
  getTxListDetails: () => transactions.getTxListDetails({ txId: plan.txIds, eventLimit: 5 }),
  getSmartContractsStatus: () => contracts.getSmartContractsStatus({ contractId: plan.contractIds }),
  getContractEventsById: () =>
    contracts.getContractEventsById({ contractId: plan.contractWithLogs, limit: 5, offset: 1 }),
  getAddressTransactions: () =>
    transactions.getAddressTransactions({ address: plan.address, limit: 7, offset: 2 }),
  getAddressMempoolTransactions: () =>
    transactions.getAddressMempoolTransactions({ address: plan.mempoolAddress, limit: 10 }),
};

const out = {};
for (const [name, call] of Object.entries(calls)) {
  try {
    out[name] = { ok: true, value: await call() };
  } catch (e) {
    // The generated client throws a ResponseError (with the Response) on any non-2xx answer.
    const status = e?.response?.status;
    out[name] = { ok: false, error: status ? `HTTP ${status}: ${await e.response.text()}` : String(e?.stack ?? e) };
  }
}
process.stdout.write(JSON.stringify(out));
