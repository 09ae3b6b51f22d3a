/**
 * Seals API keys and secrets at rest. `shared/` defines it and stores plain text (the headless service has no key
 * store); the desktop app implements it with Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet) where the
 * system has one. Sealed values are base64 text.
 */
export interface SecretCipher {
  /** True when `seal` really encrypts with a key the system keeps; false for plain text. */
  readonly encrypts: boolean;
  /** A sentence for the settings page: where keys are kept and how well. */
  readonly description: string;
  seal(plaintext: string): string;
  /** Throws when the value cannot be opened (another machine or user, a reset key store). */
  open(sealed: string): string;
}

/** No key store: keys stay plain text in settings.json, which is written readable by the user only (mode 0600). */
export const plaintextCipher: SecretCipher = {
  encrypts: false,
  description:
    "This system has no key store that gasfees can use, so API keys are stored in plain text in settings.json, readable by your user account only (file mode 0600).",
  seal() {
    throw new Error("the plain-text cipher does not seal: store the key in apiKeys instead");
  },
  open() {
    throw new Error("the plain-text cipher cannot open sealed keys: only the desktop app that sealed them can");
  },
};
