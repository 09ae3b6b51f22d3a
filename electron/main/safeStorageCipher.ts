import { safeStorage } from "electron";
import { plaintextCipher, type SecretCipher } from "../../shared/keys/secretCipher.ts";

const STORE_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: "the macOS Keychain", win32: "Windows DPAPI (your user account)" };

/**
 * Electron's safeStorage as the SecretCipher, where the system has a key store. On Linux without libsecret or
 * KWallet, safeStorage falls back to a hard-coded key ("basic_text"), which is no protection: that counts as none.
 * Call after the app is ready.
 */
export function safeStorageCipher(): SecretCipher {
  if (!safeStorage.isEncryptionAvailable()) return plaintextCipher;
  let storeName = STORE_NAMES[process.platform] ?? "the system key store";
  if (process.platform === "linux") {
    const backend = safeStorage.getSelectedStorageBackend();
    if (backend === "basic_text" || backend === "unknown") {
      return {
        ...plaintextCipher,
        description:
          "No key store (GNOME Keyring/libsecret or KWallet) is running, so API keys are stored in plain text in settings.json, readable by your user account only (file mode 0600).",
      };
    }
    storeName = backend === "gnome_libsecret" ? "the GNOME keyring (libsecret)" : "KWallet";
  }
  return {
    encrypts: true,
    description: `API keys are encrypted with ${storeName}. Only this app, for your user account on this computer, can read them; \`npm run serve\` cannot.`,
    seal: (plaintext) => safeStorage.encryptString(plaintext).toString("base64"),
    open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, "base64")),
  };
}
