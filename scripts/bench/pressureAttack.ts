// Child process of pressureBench: one key attacking the server with history scans, closed-loop (each connection asks
// again as soon as it is answered, 429s included: as fast as the defaults let it), until told to stop. Prints one JSON
// line: how many answers of each kind it got.
//   node pressureAttack.mjs <port> <key> <attack> <seconds>
import { Agent, request as httpRequest } from "node:http";

const [portText, key, attack, secondsText] = process.argv.slice(2);
const CHAIN = 42161;
const ATTACKS: Readonly<Record<string, { readonly path: string; readonly connections: number }>> = {
  // Four connections asking for the longest window in the most buckets.
  "stats-year": { path: `/networks/${CHAIN}/baseFeeStats?window=366d&buckets=2000`, connections: 4 },
  // The widest range there is: every block held in one of 2,000 buckets of 4,000 years.
  "stats-all": { path: `/networks/${CHAIN}/baseFeeStats?from=0&to=253402300799&buckets=2000`, connections: 4 },
  // A hundred quick requests at once for the week in one bucket.
  "stats-quick": { path: `/networks/${CHAIN}/baseFeeStats?window=7d&buckets=1`, connections: 100 },
  // The week's CSV, read as fast as it comes, again and again.
  csv: { path: `/networks/${CHAIN}/baseFeeHistory.csv`, connections: 1 },
};
const chosen = ATTACKS[attack ?? ""];
if (chosen === undefined || key === undefined) throw new Error(`usage: pressureAttack <port> <key> <${Object.keys(ATTACKS).join("|")}> <seconds>`);
const port = Number(portText);
const deadline = performance.now() + Number(secondsText) * 1000;
const agent = new Agent({ keepAlive: true, maxSockets: chosen.connections });
const authorization = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
const counts = { ok: 0, limited: 0, other: 0, bytes: 0 };

function ask(): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: chosen!.path, agent, headers: { Authorization: authorization } }, (res) => {
      res.on("data", (chunk: Buffer) => (counts.bytes += chunk.length));
      res.on("end", () => {
        if (res.statusCode === 200) counts.ok++;
        else if (res.statusCode === 429) counts.limited++;
        else counts.other++;
        resolve();
      });
      res.on("error", () => resolve());
    });
    req.on("error", () => {
      counts.other++;
      resolve();
    });
    req.end();
  });
}

async function connection(): Promise<void> {
  while (performance.now() < deadline) await ask();
}

await Promise.all(Array.from({ length: chosen.connections }, connection));
agent.destroy();
process.stdout.write(`${JSON.stringify(counts)}\n`);
