// Calls our server through Hiro's current published TypeScript client (@stacks/blockchain-api-client
// 9.x, the exact version in package-lock.json): createClient, then client.GET(path, { params }) for each
// call of the plan (argv[2]), with the path spelled as in the client's own schema. Prints, per call,
// what the client got: status, the URL it requested, the response headers, and the parsed body
// (`data` on 2xx, `error` otherwise). OfficialClient9Test (Java) writes the plan and checks every
// answer against spec/openapi.yaml and the chain.
import { readFileSync } from 'node:fs';
import { createClient } from '@stacks/blockchain-api-client';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const client = createClient({ baseUrl: plan.baseUrl });

const out = {};
for (const call of plan.calls) {
  try {
    const { data, error, response } = await client.GET(call.path, { params: call.params });
    out[call.name] = {
      ok: true,
      status: response.status,
      url: response.url,
      headers: Object.fromEntries(response.headers.entries()),
      body: data ?? error ?? null,
    };
  } catch (e) {
    // openapi-fetch throws only when no answer came (connection refused, unparsable body).
    out[call.name] = { ok: false, error: String(e?.stack ?? e) };
  }
}
process.stdout.write(JSON.stringify(out));
