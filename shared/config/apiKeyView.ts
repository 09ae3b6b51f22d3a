/** How the settings page lists a key: never the key itself. (Types only: the renderer imports it through the preload bridge.) */
export interface ApiKeyView {
  /** The key's digest prefix, the same as the keyring's keyId. */
  readonly id: string;
  /** The first and last four characters. */
  readonly hint: string;
  readonly label: string | undefined;
  readonly createdAt: string | undefined;
  readonly requiresSecret: boolean;
  /** plaintext: in settings.json as is; encrypted: sealed by the key store; unreadable: sealed, but the key store cannot open it. */
  readonly storage: "plaintext" | "encrypted" | "unreadable";
}
