import assert from "node:assert/strict";
import { test } from "node:test";
import { isLoopbackAddress, isLoopbackHost, MAX_WEBHOOK_URL_CHARS, webhookShown, webhookUrlProblem } from "./webhookUrl.ts";

const HTTPS_OR_LOOPBACK = /^must be https, or http to this computer \(127\.0\.0\.1, localhost or \[::1\]\)/;

test("https to any host is accepted, with a port, path, query and fragment", () => {
  for (const url of [
    "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "https://discord.com/api/webhooks/123/abc-DEF_ghi?wait=true",
    "https://example.com:8443/hook#part",
    "https://10.0.0.7/hook",
    "HTTPS://Example.COM/Hook",
  ]) {
    assert.equal(webhookUrlProblem(url), undefined, url);
  }
});

test("http is accepted only to a loopback host: 127.0.0.0/8, [::1] and localhost", () => {
  for (const url of [
    "http://127.0.0.1:9000/hook",
    "http://127.255.3.4/",
    "http://localhost:8080/alerts",
    "http://LOCALHOST/alerts",
    "http://[::1]:7000/hook",
    "http://[0:0:0:0:0:0:0:1]/hook",
  ]) {
    assert.equal(webhookUrlProblem(url), undefined, url);
  }
});

test("http to any other host is refused with a message that says what is accepted and why", () => {
  for (const url of [
    "http://example.com/hook",
    "http://10.0.0.7/hook",
    "http://192.168.1.2:8080/",
    "http://0.0.0.0:9000/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://localhost.example.com/",
    "http://foo.localhost/",
    "http://127.0.0.1.nip.io/",
  ]) {
    const problem = webhookUrlProblem(url);
    assert.match(problem ?? "", HTTPS_OR_LOOPBACK, url);
    assert.match(problem ?? "", /unencrypted/, url);
  }
  assert.equal(
    webhookUrlProblem("http://example.com/hook"),
    "must be https, or http to this computer (127.0.0.1, localhost or [::1]): http to example.com would send the alert unencrypted over the network",
  );
});

test("other schemes are refused, named", () => {
  assert.equal(webhookUrlProblem("ftp://example.com/x"), "must be https, or http to this computer (127.0.0.1, localhost or [::1]), not ftp:");
  for (const url of ["file:///etc/passwd", "ws://127.0.0.1/", "javascript:alert(1)", "mailto:a@example.com"]) {
    assert.match(webhookUrlProblem(url) ?? "", HTTPS_OR_LOOPBACK, url);
  }
});

test("a user name or password in the URL is refused, on https and loopback http alike", () => {
  for (const url of ["https://user:pass@example.com/hook", "https://user@example.com/hook", "http://:secret@127.0.0.1/hook"]) {
    assert.match(webhookUrlProblem(url) ?? "", /^must not hold a user name or password \(user:pass@\)/, url);
  }
});

test("text that is no URL, or empty, is refused with what to write instead", () => {
  assert.match(webhookUrlProblem("hooks.slack.com/services/T000") ?? "", /^is not a URL: write it whole, with its scheme/);
  assert.match(webhookUrlProblem("https://") ?? "", /^is not a URL/);
  assert.match(webhookUrlProblem("") ?? "", /^is empty/);
  assert.match(webhookUrlProblem("   ") ?? "", /^is empty/);
});

test("at most 2,048 characters are accepted", () => {
  const prefix = "https://example.com/";
  const longest = prefix + "a".repeat(MAX_WEBHOOK_URL_CHARS - prefix.length);
  assert.equal(longest.length, 2_048);
  assert.equal(webhookUrlProblem(longest), undefined);
  assert.equal(webhookUrlProblem(`${longest}a`), "is 2,049 characters long; at most 2,048 are accepted");
});

test("no message quotes the URL's path, query or credentials", () => {
  for (const url of [
    "http://example.com/SECRETPATH?SECRETQUERY",
    "https://SECRETUSER:SECRETPASS@example.com/SECRETPATH",
    "ftp://example.com/SECRETPATH",
    `https://example.com/SECRETPATH${"x".repeat(3_000)}`,
    "nonsense SECRETPATH",
  ]) {
    assert.doesNotMatch(webhookUrlProblem(url) ?? "", /SECRET/, url);
  }
});

test("isLoopbackHost and isLoopbackAddress take 127.0.0.0/8, ::1 and localhost only", () => {
  for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1"]) assert.ok(isLoopbackHost(host), host);
  for (const host of ["localhost.", "127.0.0.256", "128.0.0.1", "0.0.0.0", "::", "[::2]", "::ffff:7f00:1", "example.com", ""]) {
    assert.ok(!isLoopbackHost(host), host);
  }
  assert.ok(isLoopbackAddress("127.0.0.1"));
  assert.ok(!isLoopbackAddress("localhost"), "a name is not an address");
});

test("webhookShown gives the scheme, host and port only, with /… when there is more", () => {
  assert.equal(webhookShown("https://hooks.slack.com/services/T000/B000/XXXXXXXX"), "https://hooks.slack.com/…");
  assert.equal(webhookShown("https://discord.com/api/webhooks/1/tok?wait=true"), "https://discord.com/…");
  assert.equal(webhookShown("https://example.com?token=abc"), "https://example.com/…");
  assert.equal(webhookShown("http://127.0.0.1:9000/hook"), "http://127.0.0.1:9000/…");
  assert.equal(webhookShown("http://[::1]:9000"), "http://[::1]:9000");
  assert.equal(webhookShown("https://example.com/"), "https://example.com");
  assert.equal(webhookShown("https://user:pass@example.com:443/x"), "https://example.com/…");
  assert.equal(webhookShown("not a url"), "(not a URL)");
  assert.equal(webhookShown("mailto:secret@example.com"), "mailto:…");
});
