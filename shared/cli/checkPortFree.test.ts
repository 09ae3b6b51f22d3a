import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { test } from "node:test";
import { checkPortFree, PortInUseError } from "./checkPortFree.ts";

test("a taken port is refused with a message that names it and says what to do", async () => {
  const holder = createServer().listen(0, "127.0.0.1");
  await once(holder, "listening");
  const { port } = holder.address() as AddressInfo;
  try {
    await assert.rejects(
      checkPortFree("127.0.0.1", port),
      (error: unknown) =>
        error instanceof PortInUseError && error.message.includes(`127.0.0.1:${port}`) && /already in use: pick another with --port N/.test(error.message),
    );
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
  // Free again: the check passes, and lets the port go for the service to take.
  await checkPortFree("127.0.0.1", port);
  const service = createServer().listen(port, "127.0.0.1");
  await once(service, "listening");
  await new Promise((resolve) => service.close(resolve));
});

test("port 0 is always free, and an address that is not this computer's is the system's error", async () => {
  await checkPortFree("127.0.0.1", 0);
  await assert.rejects(checkPortFree("192.0.2.1", 8950), (error: NodeJS.ErrnoException) => error.code === "EADDRNOTAVAIL");
});
