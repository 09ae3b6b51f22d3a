// The desktop app as electron-builder packs it, without the Electron binary this machine cannot download: a copy of
// the project is built (npm run build:electron and build:renderer) and packed by electron-builder itself for Linux's
// unpacked target, with a stand-in Electron whose only real part is its fuse wire (support/standInElectron.ts). Then
// the app.asar it made is listed with @electron/asar: it holds the bundles and nothing else, everything the main
// process loads at run time, no native module (so nothing needs rebuilding for Electron's ABI); the afterPack hook
// flipped the fuses; the desktop entry the deb and AppImage install is the one the menu specification wants.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, posix, relative, resolve } from "node:path";
import { after, before, test } from "node:test";
import { extractFile, listPackage, statFile } from "@electron/asar";
import { getCurrentFuseWire } from "@electron/fuses";
import { build } from "esbuild";
import { filesUnder } from "../../scripts/filesUnder.mjs";
import { fuseMismatches } from "../../scripts/packaging/electronFuses.mjs";
import { writeStandInBinary } from "./support/standInElectron.ts";

const REPO = resolve(".");
/** What is not copied into the project copy: what .gitignore leaves out, and git's own folder. */
const NOT_COPIED = new Set([".git", "node_modules", "dist", "out", "test-results", "playwright-report", ".tmp"]);
/** ws's optional native helpers: the bundle requires them inside try/catch and runs without them. */
const OPTIONAL_IMPORTS = new Set(["bufferutil", "utf-8-validate"]);
/** Loaded by the main process by path at run time (electron/main/index.ts, tray.ts), beside main.mjs or under ../renderer. */
const LOADED_BY_PATH = [
  "dist/electron/preload.cjs",
  ...["normal", "busy", "unknown"].flatMap((state) => [`dist/electron/tray/${state}.png`, `dist/electron/tray/${state}@2x.png`]),
  "dist/renderer/index.html",
];

const workDir = mkdtempSync(join(tmpdir(), "gasfees-packed-"));
const projectCopy = join(workDir, "project");
const asarPath = () => join(packed.appOutDir, "resources", "app.asar");
let packed: { appOutDir: string; desktopEntry: string; log: string };

function run(command: string, args: readonly string[], cwd: string): string {
  const windows = process.platform === "win32";
  const done = spawnSync(windows && command === "npm" ? "npm.cmd" : command, args, { cwd, encoding: "utf8", shell: windows, timeout: 180_000 });
  const output = `${done.stdout}${done.stderr}`;
  assert.equal(done.status, 0, `${command} ${args.join(" ")} in ${cwd} failed:\n${output}`);
  return output;
}

before(() => {
  cpSync(REPO, projectCopy, { recursive: true, filter: (source) => !NOT_COPIED.has(relative(REPO, source).split(/[\\/]/)[0]!) });
  symlinkSync(join(REPO, "node_modules"), join(projectCopy, "node_modules"), process.platform === "win32" ? "junction" : "dir");
  run("npm", ["run", "--silent", "build:electron"], projectCopy);
  run("npm", ["run", "--silent", "build:renderer"], projectCopy);

  const electronDist = join(workDir, "electron-dist");
  writeStandInBinary(join(electronDist, "electron"));
  const electronVersion = (JSON.parse(readFileSync(join(REPO, "node_modules/electron/package.json"), "utf8")) as { version: string }).version;
  writeFileSync(join(electronDist, "version"), electronVersion);
  writeFileSync(join(electronDist, "LICENSE"), "stand-in\n");
  mkdirSync(join(electronDist, "locales"));
  writeFileSync(join(electronDist, "locales", "en-US.pak"), "");
  mkdirSync(join(electronDist, "resources"));

  const resultFile = join(workDir, "result.json");
  const script = join(REPO, "test/packaging/support/packWithStandInElectron.mjs");
  const log = run(process.execPath, [script, electronDist, join(workDir, "installers"), resultFile], projectCopy);
  packed = { ...(JSON.parse(readFileSync(resultFile, "utf8")) as { appOutDir: string; desktopEntry: string }), log };
});

after(() => rmSync(workDir, { recursive: true, force: true }));

/** The files of app.asar (not its folders), as paths with forward slashes and no leading slash. */
function asarFiles(): string[] {
  return listPackage(asarPath(), { isPack: false })
    .filter((path) => !("files" in statFile(asarPath(), path.replace(/^[\\/]/, ""))))
    .map((path) => path.replace(/\\/g, "/").replace(/^\//, ""))
    .sort();
}

test("app.asar holds the built bundles and package.json, and nothing else: no sources, no source maps, no node_modules", () => {
  const built = ["dist/electron", "dist/renderer"]
    .flatMap((dir) => filesUnder(join(projectCopy, dir)))
    .map((file) => relative(projectCopy, file).replace(/\\/g, "/"))
    .filter((file) => !file.endsWith(".map"));
  assert.deepEqual(asarFiles(), [...built, "package.json"].sort());
  assert.ok(!existsSync(`${asarPath()}.unpacked`), "nothing is unpacked beside app.asar");
});

test("the main process's entry is in app.asar and imports nothing but Electron and Node's built-ins", async () => {
  const manifest = JSON.parse(extractFile(asarPath(), "package.json").toString("utf8")) as { main: string };
  const mainFile = manifest.main.replace(/^\.\//, "");
  assert.ok(asarFiles().includes(mainFile), `package.json's main ${manifest.main} is not in app.asar`);

  for (const entry of [mainFile, "dist/electron/preload.cjs"]) {
    const extracted = join(workDir, "extracted", entry);
    mkdirSync(join(extracted, ".."), { recursive: true });
    writeFileSync(extracted, extractFile(asarPath(), entry));
    // esbuild lists every import and require() of the built file; bundling it again would inline relative ones.
    const analysed = await build({
      entryPoints: [extracted],
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      packages: "external",
      logLevel: "silent",
      outdir: join(workDir, "analysed"),
    });
    const imports = Object.values(analysed.metafile.inputs).flatMap((input) => input.imports.map((imported) => imported.path));
    const outside = [...new Set(imports)].filter(
      (path) =>
        path !== "electron" &&
        !path.startsWith("node:") &&
        !builtinModules.includes(path) &&
        !OPTIONAL_IMPORTS.has(path) &&
        !path.startsWith(join(workDir, "extracted")),
    );
    assert.deepEqual(
      outside,
      [],
      `${entry} imports what app.asar does not hold: bundle it (scripts/buildElectron.mjs), or ship it and let electron-builder rebuild it for Electron`,
    );
  }
});

test("everything the main process opens by path at run time is in app.asar, the page's scripts and styles too", () => {
  const files = asarFiles();
  const missing = LOADED_BY_PATH.filter((file) => !files.includes(file));
  const page = extractFile(asarPath(), "dist/renderer/index.html").toString("utf8");
  const referenced = [...page.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((match) => posix.join("dist/renderer", match[1]!));
  assert.ok(referenced.length > 0, "index.html references no script or style");
  assert.deepEqual([...missing, ...referenced.filter((file) => !files.includes(file))], []);
});

test("nothing native ships, so no module needs rebuilding for Electron's ABI", () => {
  assert.deepEqual(
    asarFiles().filter((file) => file.endsWith(".node")),
    [],
  );
});

test("the afterPack hook flipped the fuses of the packed binary, which electron-builder named after the app", async () => {
  const binary = join(packed.appOutDir, "gasfees");
  assert.ok(existsSync(binary), `no ${binary}: electron-builder names the Linux executable after the app`);
  assert.deepEqual(fuseMismatches(await getCurrentFuseWire(binary)), []);
  assert.match(packed.log, /gasfees: Electron fuses of .*gasfees: runAsNode off/);
});

test("the desktop entry the deb and AppImage install names the app, its icon, its command and its categories", () => {
  const entry = Object.fromEntries(
    packed.desktopEntry
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  assert.ok(packed.desktopEntry.startsWith("[Desktop Entry]\n"));
  assert.deepEqual(
    { Type: entry.Type, Name: entry.Name, Exec: entry.Exec, Icon: entry.Icon, Terminal: entry.Terminal, Categories: entry.Categories },
    { Type: "Application", Name: "gasfees", Exec: "/opt/gasfees/gasfees %U", Icon: "gasfees", Terminal: "false", Categories: "Office;Finance;" },
  );
  assert.ok(entry.Comment, "the entry has a Comment (the package's description)");
});
