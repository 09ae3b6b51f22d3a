// The child of serviceProcess.ts: runs startLocalService with the chains and keys it is given, reports its URL, and
// measures its resident memory after full collections when asked (it runs with --expose-gc).
import { setImmediate as nextTurn } from "node:timers/promises";
import type { ApiKeySettings } from "../../shared/config/settings.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { ENV_SERVICE_CONFIG, type ServiceProcessCommand, type ServiceProcessMessage } from "./serviceProcess.ts";
import { type LocalServiceExtras, startLocalService } from "./startLocalService.ts";

const { chains, apiKeys, extras } = JSON.parse(process.env[ENV_SERVICE_CONFIG] ?? "{}") as {
  chains: ChainPlan[];
  apiKeys: ApiKeySettings[];
  extras?: LocalServiceExtras;
};
const gc = (globalThis as { gc?: () => void }).gc;
if (!process.send || !gc) throw new Error("serviceProcessMain.ts is started by startServiceProcess() (IPC, --expose-gc)");
const send = (message: ServiceProcessMessage) => process.send!(message);

const service = await startLocalService(chains, apiKeys, extras);
process.on("message", (command: ServiceProcessCommand) => {
  if (command.type === "stop") {
    void service.stop().finally(() => process.exit(0));
    return;
  }
  void (async () => {
    // Several rounds: a collection can leave work (finalisers, freed external memory) to the next.
    for (let round = 0; round < 4; round++) {
      gc();
      await nextTurn();
    }
    send({ type: "rss", id: command.id, rssBytes: process.memoryUsage().rss });
  })();
});
process.on("disconnect", () => void service.stop().finally(() => process.exit(0)));
send({ type: "ready", url: service.url });
