// `npm run backtest -- --input FILE.csv [...]`: the outlook estimator's walk-forward backtest (shared/cli/backtestCommand.ts).
import { runBacktestCommand } from "../shared/cli/backtestCommand.ts";

process.exitCode = runBacktestCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
});
