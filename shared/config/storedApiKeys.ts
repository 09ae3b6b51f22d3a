import type { ApiKeySettings, SealedApiKey, Settings } from "./settings.ts";
import { maskApiKey } from "../core/text/maskApiKey.ts";
import { apiKeyIdOf } from "../keys/apiKeyId.ts";
import { generateApiKey } from "../keys/generateApiKey.ts";
import type { ApiKeyView } from "./apiKeyView.ts";
import type { SecretCipher } from "../keys/secretCipher.ts";

export type { ApiKeyView } from "./apiKeyView.ts";
export { apiKeyIdOf } from "../keys/apiKeyId.ts";

/**
 * The API keys of the settings file, as the settings page manages them: plain keys (`apiKeys`, which `npm run serve`
 * reads too) and keys sealed by the desktop app's key store (`sealedApiKeys`). Pure functions of the settings: each
 * returns the new settings, and the caller stores them (SettingsStore.update) and updates the live keyring.
 */

/** A key and its secret, shown once when created (and copied on request). */
export interface ApiKeyCredentials {
  readonly key: string;
  readonly secret?: string;
}

export class ApiKeyNotFoundError extends Error {
  override name = "ApiKeyNotFoundError";
}

function openSealed(sealed: SealedApiKey, cipher: SecretCipher): ApiKeyCredentials | undefined {
  if (!cipher.encrypts) return undefined;
  try {
    const opened = JSON.parse(cipher.open(sealed.sealed)) as { key?: unknown; secret?: unknown };
    if (typeof opened.key !== "string" || apiKeyIdOf(opened.key) !== sealed.id) return undefined;
    return typeof opened.secret === "string" ? { key: opened.key, secret: opened.secret } : { key: opened.key };
  } catch {
    return undefined;
  }
}

export function listApiKeys(settings: Settings, cipher: SecretCipher): ApiKeyView[] {
  const plain = settings.apiKeys.map((apiKey): ApiKeyView => ({
    id: apiKeyIdOf(apiKey.key),
    hint: maskApiKey(apiKey.key),
    label: apiKey.label,
    createdAt: apiKey.createdAt,
    requiresSecret: apiKey.secret !== undefined,
    storage: "plaintext",
  }));
  const sealed = settings.sealedApiKeys.map((apiKey): ApiKeyView => ({
    id: apiKey.id,
    hint: apiKey.hint,
    label: apiKey.label,
    createdAt: apiKey.createdAt,
    requiresSecret: apiKey.requiresSecret,
    storage: openSealed(apiKey, cipher) ? "encrypted" : "unreadable",
  }));
  return [...plain, ...sealed];
}

/** The keys the keyring accepts: every plain key and every sealed key the cipher opens; `unreadable` counts the rest. */
export function usableApiKeys(settings: Settings, cipher: SecretCipher): { keys: ApiKeySettings[]; unreadable: number } {
  const keys: ApiKeySettings[] = [...settings.apiKeys];
  let unreadable = 0;
  for (const sealed of settings.sealedApiKeys) {
    const opened = openSealed(sealed, cipher);
    if (opened) keys.push(opened.secret === undefined ? { key: opened.key } : { key: opened.key, secret: opened.secret });
    else unreadable++;
  }
  return { keys, unreadable };
}

export interface NewApiKeyOptions {
  readonly label?: string;
  /** Also make a secret that Basic must carry (the key-in-path form is then refused). */
  readonly requireSecret?: boolean;
}

/**
 * Makes a key (and a secret if asked) and adds it to the settings: sealed when the cipher encrypts, else plain.
 * Returns the new settings and the credentials to show the user once.
 */
export function addNewApiKey(
  settings: Settings,
  options: NewApiKeyOptions,
  cipher: SecretCipher,
  now: () => Date = () => new Date(),
): { settings: Settings; created: ApiKeyCredentials & { id: string } } {
  const key = generateApiKey();
  const secret = options.requireSecret ? generateApiKey() : undefined;
  const label = options.label?.trim() ? options.label.trim().slice(0, 64) : undefined;
  const createdAt = now().toISOString();
  const id = apiKeyIdOf(key);
  const created = secret === undefined ? { id, key } : { id, key, secret };
  if (cipher.encrypts) {
    const sealed: SealedApiKey = {
      id,
      hint: maskApiKey(key),
      requiresSecret: secret !== undefined,
      cipher: "os-keystore",
      sealed: cipher.seal(JSON.stringify(secret === undefined ? { key } : { key, secret })),
      ...(label === undefined ? {} : { label }),
      createdAt,
    };
    return { settings: { ...settings, sealedApiKeys: [...settings.sealedApiKeys, sealed] }, created };
  }
  const plain: ApiKeySettings = { key, ...(secret === undefined ? {} : { secret }), ...(label === undefined ? {} : { label }), createdAt };
  return { settings: { ...settings, apiKeys: [...settings.apiKeys, plain] }, created };
}

/** Removes the key with this id, wherever it is stored. Throws ApiKeyNotFoundError for an unknown id. */
export function removeApiKey(settings: Settings, id: string): Settings {
  const apiKeys = settings.apiKeys.filter((apiKey) => apiKeyIdOf(apiKey.key) !== id);
  const sealedApiKeys = settings.sealedApiKeys.filter((apiKey) => apiKey.id !== id);
  if (apiKeys.length === settings.apiKeys.length && sealedApiKeys.length === settings.sealedApiKeys.length) {
    throw new ApiKeyNotFoundError(`no API key with id ${id}: it may have been revoked already`);
  }
  return { ...settings, apiKeys, sealedApiKeys };
}

/** The key and secret with this id (for "copy"), or undefined when it is sealed and the key store cannot open it. */
export function revealApiKey(settings: Settings, id: string, cipher: SecretCipher): ApiKeyCredentials | undefined {
  const plain = settings.apiKeys.find((apiKey) => apiKeyIdOf(apiKey.key) === id);
  if (plain) return plain.secret === undefined ? { key: plain.key } : { key: plain.key, secret: plain.secret };
  const sealed = settings.sealedApiKeys.find((apiKey) => apiKey.id === id);
  if (!sealed) throw new ApiKeyNotFoundError(`no API key with id ${id}: it may have been revoked already`);
  return openSealed(sealed, cipher);
}
