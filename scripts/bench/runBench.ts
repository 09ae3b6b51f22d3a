// npm run bench: each measurement beside a baseline measured in the same run, with their ratio.
import { cpus } from "node:os";
import { runFeedBench } from "./feedBench.ts";

const format = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1));

const results = await runFeedBench();
console.log(`gasfees bench — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}\n`);
console.log("| measurement | gasfees | baseline | ratio | goal |");
console.log("|---|---|---|---|---|");
for (const result of results) {
  const ratio = result.baseline === 0 ? "—" : (result.value / result.baseline).toFixed(3);
  console.log(`| ${result.name} | ${format(result.value)} ${result.unit} | ${format(result.baseline)} (${result.baselineName}) | ${ratio} | ${result.goal} |`);
}
