import assert from "node:assert/strict";
import { test } from "node:test";
import { APP_ENTRY_URL } from "./security.ts";
import { type IpcSenderOf, untrustedSenderReason } from "./trustedSender.ts";

// Web contents are compared by identity: any two distinct objects stand for two web contents.
const mainWindow = { id: 1 };
const otherWindow = { id: 2 };
const topFrame = (url: string) => ({ url, parent: null });
const subframe = (url: string) => ({ url, parent: topFrame(APP_ENTRY_URL) });
const call = (sender: object, senderFrame: IpcSenderOf<object>["senderFrame"]): IpcSenderOf<object> => ({ sender, senderFrame });

test("the main window's top frame on the app's own pages may call the bridge", () => {
  for (const url of [APP_ENTRY_URL, "gasfees://app/index.html#chain=1", "gasfees://app/assets/x.js"]) {
    assert.equal(untrustedSenderReason(call(mainWindow, topFrame(url)), mainWindow), undefined, url);
  }
});

test("a subframe is refused, even on the app's own origin", () => {
  assert.match(untrustedSenderReason(call(mainWindow, subframe(APP_ENTRY_URL)), mainWindow) ?? "", /subframe/);
  assert.match(untrustedSenderReason(call(mainWindow, subframe("https://evil.example/")), mainWindow) ?? "", /subframe/);
});

test("a sender other than the main window is refused, even on the app's own page", () => {
  assert.match(untrustedSenderReason(call(otherWindow, topFrame(APP_ENTRY_URL)), mainWindow) ?? "", /not the main window/);
  assert.match(untrustedSenderReason(call(mainWindow, topFrame(APP_ENTRY_URL)), undefined) ?? "", /main window is closed/);
});

test("the main window on a page outside the app's origin is refused", () => {
  for (const url of [
    "https://evil.example/index.html",
    "http://127.0.0.1:8950/",
    "gasfees://evil/index.html",
    "gasfees://user:pw@app/index.html",
    "file:///index.html",
    "about:blank",
    "",
  ]) {
    assert.match(untrustedSenderReason(call(mainWindow, topFrame(url)), mainWindow) ?? "", /not one of the app's own/, url);
  }
});

test("a frame that has navigated away or closed (Electron gives null) is refused", () => {
  assert.match(untrustedSenderReason(call(mainWindow, null), mainWindow) ?? "", /navigated away or closed/);
});
