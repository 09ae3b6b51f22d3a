import { parseArgs } from "node:util";
import { historyPath } from "../app/openHistoryStore.ts";
import { settingsPath, userConfigDir } from "../config/configDir.ts";
import { type ApiKeySettings, type ChainSettings, chainSettingsSchema } from "../config/settings.ts";
import { apiKeyValueSchema } from "../keys/apiKeyValue.ts";

/**
 * `npm run serve -- --help`: the options, then where the files are, in the settings folder of this computer (the
 * desktop app's, userConfigDir) as this environment has it.
 */
export function serveUsage(configDir: string = userConfigDir()): string {
  const [settings, history] = [settingsPath(configDir), historyPath(configDir)];
  const width = Math.max(settings.length, history.length);
  return `Usage: npm run serve -- [options]

  --port N                 listen port (default 8950, or GASFEES_PORT; 0 = any free port)
  --host H                 interface to listen on (default 127.0.0.1)
  --chain ID=URL[,URL...]  follow chain ID through these RPC endpoints (http(s) or ws(s)); repeatable;
                           replaces the default chains
  --api-key KEY[:SECRET]   a key that may call the API (with :SECRET, that secret is required); repeatable;
                           without any, the stored key is used (one is generated and stored on first run)
  --config FILE            a JSON settings file (the desktop app's format)
  --demo                   follow a local EVM node replaying real mainnet base fees (no internet needed)
  --help                   show this help

Files, shared with the desktop app:
  ${settings.padEnd(width)}  the settings: chains, API keys, alerts (--config FILE reads another)
  ${history.padEnd(width)}  the base fees kept across restarts
Their folder: GASFEES_CONFIG_DIR when set; else ~/Library/Application Support/gasfees on macOS,
%APPDATA%\\gasfees on Windows, $XDG_CONFIG_HOME/gasfees (default ~/.config/gasfees) elsewhere.`;
}

export interface ServeOptions {
  port?: number;
  host?: string;
  chains: ChainSettings[];
  apiKeys: ApiKeySettings[];
  configFile?: string;
  demo: boolean;
  help: boolean;
}

/** A command line the service cannot start with; the message says what to type instead. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The options serve takes, as node:util's parseArgs reads them. */
export const SERVE_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  chain: { type: "string", multiple: true },
  "api-key": { type: "string", multiple: true },
  config: { type: "string" },
  demo: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export function parseServeOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: SERVE_OPTIONS });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  // An empty variable is an unset one (`GASFEES_PORT= npm run serve`).
  const portText = values.port ?? (env.GASFEES_PORT === "" ? undefined : env.GASFEES_PORT);
  const chains = (values.chain ?? []).map(parseChainOption);
  const duplicate = chains.find((chain, index) => chains.findIndex((other) => other.chainId === chain.chainId) !== index);
  if (duplicate) throw new UsageError(`--chain ${duplicate.chainId} is given twice: list all its URLs in one --chain, separated by commas`);
  return {
    ...(portText === undefined ? {} : { port: parsePort(portText, values.port === undefined ? "GASFEES_PORT" : "--port") }),
    ...(values.host === undefined ? {} : { host: parseHost(values.host) }),
    chains,
    apiKeys: (values["api-key"] ?? []).map(parseApiKeyOption),
    ...(values.config === undefined ? {} : { configFile: values.config }),
    demo: values.demo ?? false,
    help: values.help ?? false,
  };
}

function parsePort(text: string, source: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535) {
    throw new UsageError(`${source} must be a port number from 0 to 65535 (0 picks a free port), not '${text}'`);
  }
  return Number(text);
}

function parseHost(text: string): string {
  if (text.trim() === "") throw new UsageError("--host needs an interface address, like 127.0.0.1");
  return text.trim();
}

function parseChainOption(text: string): ChainSettings {
  const match = /^([^=]*)=(.*)$/.exec(text);
  if (!match) throw new UsageError(`--chain takes ID=URL[,URL...], like --chain 1=https://rpc.example.org (got '${text}')`);
  const [, idText = "", urlsText = ""] = match;
  if (!/^[1-9]\d*$/.test(idText) || !Number.isSafeInteger(Number(idText))) {
    throw new UsageError(`--chain: '${idText}' is not a chain id; use the decimal id, like 1 or 8453`);
  }
  const result = chainSettingsSchema.safeParse({
    chainId: Number(idText),
    rpcUrls: urlsText.split(",").filter((url) => url.trim() !== ""),
  });
  if (!result.success) {
    const problem = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new UsageError(`--chain ${idText}: ${problem}`);
  }
  return result.data;
}

function parseApiKeyOption(text: string): ApiKeySettings {
  const colon = text.indexOf(":");
  const key = colon === -1 ? text : text.slice(0, colon);
  const secret = colon === -1 ? undefined : text.slice(colon + 1);
  if (!apiKeyValueSchema.safeParse(key).success) {
    throw new UsageError(`--api-key: ${apiKeyValueSchema.safeParse(key).error?.issues[0]?.message}`);
  }
  if (secret !== undefined && (secret.length === 0 || secret.length > 256)) {
    throw new UsageError("--api-key KEY:SECRET needs a secret of 1 to 256 characters after the colon");
  }
  return secret === undefined ? { key } : { key, secret };
}
