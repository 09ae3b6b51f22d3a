// The Electron tests read what the app showed from its log: the lines the main process's real loggers write are the
// lines the tests' reader parses (plain Node, no Electron needed for this part).
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import type { AlertNotification } from "../../electron/main/alertNotification.ts";
import { logNotificationShown, NOTIFICATION_SHOWN, TRAY_CHANGED, trayChangeLogger } from "../../electron/main/shownToUser.ts";
import { createLogger } from "../../shared/log/logger.ts";
import { followAppLog } from "./support/appLog.ts";

const BUSY_SENTENCE = "Local test chain is busy: base fee 200 gwei, above the busy threshold of 19 gwei (block 121).";
const busyAlert: AlertNotification = {
  event: {
    ruleId: "busy:31337",
    chainId: 31337,
    chainName: "Local test chain",
    block: "121",
    baseFee: "200",
    threshold: "19",
    when: "above",
    firedAt: "2026-01-01T00:00:00.000Z",
    text: BUSY_SENTENCE,
    content: BUSY_SENTENCE,
  },
  title: "Local test chain is busy",
  body: BUSY_SENTENCE,
};

test("each notification and each change of the tray is one line the tests can read back, whatever the chunks", () => {
  const stderr = new PassThrough();
  const log = followAppLog(stderr);
  // The app's own logger at debug, writing in awkward chunks (a multi-byte character split across two).
  const logger = createLogger("debug", (line) => {
    const bytes = Buffer.from(line);
    const multiByte = bytes.findIndex((byte) => byte >= 0x80);
    const cut = multiByte >= 0 ? multiByte + 1 : 7;
    stderr.write(bytes.subarray(0, cut));
    stderr.write(bytes.subarray(cut));
  });
  const logTray = trayChangeLogger(logger);
  logTray({ congestion: "unknown", title: "…", tooltip: "gasfees: starting", chainId: undefined });
  logTray({ congestion: "normal", title: "12.5 gwei", tooltip: "gasfees: Local test chain base fee 12.5 gwei, normal", chainId: 31337 });
  logTray({ congestion: "normal", title: "12.5 gwei", tooltip: "gasfees: Local test chain base fee 12.5 gwei, normal", chainId: 31337 });
  logNotificationShown(logger, busyAlert);
  logger.info("something else", { chainId: 1 });

  assert.deepEqual(log.events(TRAY_CHANGED), [
    { title: "…", tooltip: "gasfees: starting", congestion: "unknown", chainId: null },
    { title: "12.5 gwei", tooltip: "gasfees: Local test chain base fee 12.5 gwei, normal", congestion: "normal", chainId: 31337 },
  ]);
  assert.deepEqual(log.events(NOTIFICATION_SHOWN), [
    { chainId: 31337, ruleId: "busy:31337", when: "above", block: "121", title: "Local test chain is busy", body: BUSY_SENTENCE },
  ]);
  assert.equal(log.lines().length, 4, "an unchanged tray is not logged again");
});

test("the tray's lines are debug, so that an info log (the default) stays quiet with each block; notifications are info", () => {
  const lines: string[] = [];
  const logger = createLogger("info", (line) => lines.push(line));
  trayChangeLogger(logger)({ congestion: "busy", title: "1 gwei", tooltip: "t", chainId: 1 });
  logNotificationShown(logger, busyAlert);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, / info {2}notification shown \{/);
});
