#!/usr/bin/env node
// Runs README.md's "Use it in your own app" section literally, as a new user would, in the folder the
// section says: a temporary folder holding the checkout `cdktf-eks-karpenter/` (here a folder with
// this checkout's `npm pack` tarball, the only file the section uses). Every ```sh block is run and
// every ```json / ```ts block is written to the file its preceding line names (`cdktf.json`: …), in
// README order, by one bash script (`set -euo pipefail`). Then the synthesized stacks are checked.
// Before that, the section must name the tarball `npm pack` writes and reach the checkout only through
// `$LIB` (what the README tells a user with another checkout path to change).
// Packages come from the npm registry (through npm's cache when it has them).
// Usage: node scripts/readme-app.cjs [--keep]   (CI: .ci/run)
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const root = path.join(__dirname, "..");
const SECTION = "## Use it in your own app";

/** The section's code blocks in order: { lang, body, file } (file: for a non-shell block). */
function readmeBlocks() {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section`);
  const end = readme.indexOf("\n## ", start + SECTION.length + 2);
  const lines = readme.slice(start, end < 0 ? undefined : end).split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)\s*$/.exec(lines[i]);
    if (!open) continue;
    const close = lines.indexOf("```", i + 1);
    const body = lines.slice(i + 1, close).join("\n") + "\n";
    // a ```text block is output the section shows (checked by checkBadProp), not a file or a command
    if (open[1] === "text") {
      i = close;
      continue;
    }
    let file;
    if (open[1] !== "sh") {
      // the nearest non-empty line above starts with the file name in backticks
      let j = i - 1;
      while (j >= 0 && !lines[j].trim()) j--;
      const named = /^`([^`]+)`/.exec(lines[j] || "");
      if (!named) throw new Error(`README "${SECTION}": the ${open[1]} block at its line ${i + 1} names no file`);
      file = named[1];
    }
    blocks.push({ lang: open[1], body, file });
    i = close;
  }
  return blocks;
}

function sh(cmd, args, opts) {
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}`);
}

/**
 * The section shows what `npx cdktf synth` prints for one bad prop, after a marker
 * `<!-- readme-app: bad-prop <text in main.ts> => <its bad replacement> -->`: the app is changed so,
 * synthesized, and what it prints (colours, spinner frames and timestamps aside) must be that block.
 */
function checkBadProp(appDir, env) {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const m = /<!-- readme-app: bad-prop (.+?) => (.+?) -->\n```text\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error(`README "${SECTION}": no bad-prop marker and \`\`\`text block (the output of one bad prop)`);
  const [, good, bad, shown] = m;
  const main = path.join(appDir, "main.ts");
  const source = fs.readFileSync(main, "utf8");
  if (!source.includes(good)) throw new Error(`README bad-prop marker: main.ts has no "${good}"`);
  fs.writeFileSync(main, source.replace(good, bad));
  try {
    // a TF_CLI_CONFIG_FILE naming no file makes terraform warn on every call cdktf makes: this machine's, not a user's
    const runEnv = { ...env };
    if (runEnv.TF_CLI_CONFIG_FILE && !fs.existsSync(runEnv.TF_CLI_CONFIG_FILE)) delete runEnv.TF_CLI_CONFIG_FILE;
    const r = spawnSync("npx", ["cdktf", "synth"], {
      cwd: appDir,
      env: { ...runEnv, CHECKPOINT_DISABLE: "1" },
      encoding: "utf8",
    });
    if (r.status === 0) throw new Error(`README bad-prop: synth with ${bad} succeeded`);
    const normal = (text) =>
      require("util")
        .stripVTControlCharacters(text)
        .replace(/\[\d{4}-\d\d-\d\dT[\d:.]+\]/g, "[<time>]")
        .split("\n")
        .map((l) => l.trimEnd())
        .filter((l) => !/^[\u2800-\u28ff]/.test(l))
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
    const printed = normal(r.stdout + r.stderr);
    if (printed !== normal(shown))
      throw new Error(
        `README bad-prop: npx cdktf synth with ${bad} prints\n${printed}\n\nnot what the README shows:\n${normal(shown)}`,
      );
    console.log(
      `README "${SECTION}": a bad prop (${bad}) prints what the README shows (${printed.split("\n").length} lines)`,
    );
  } finally {
    fs.writeFileSync(main, source);
  }
}

// --check-bad-prop <my-infra folder>: that check alone, on an app an earlier --keep run left
const only = process.argv.indexOf("--check-bad-prop");
if (only > 0) {
  checkBadProp(path.resolve(process.argv[only + 1]), process.env);
  process.exit(0);
}

const keep = process.argv.includes("--keep");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "readme-app-"));
try {
  const blocks = readmeBlocks();
  const { name, version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const tarball = `${name}-${version}.tgz`;
  const commands = blocks
    .filter((b) => b.lang === "sh")
    .map((b) => b.body)
    .join("");
  if (!/^LIB="\$PWD\/cdktf-eks-karpenter"/m.test(commands))
    throw new Error(`README "${SECTION}": no LIB="$PWD/cdktf-eks-karpenter" line (the checkout beside the app)`);
  if (!commands.includes(`"$LIB/${tarball}"`))
    throw new Error(
      `README "${SECTION}": does not install "$LIB/${tarball}", the tarball npm pack writes for version ${version}`,
    );
  const stray = commands.split("\n").filter((l) => !l.startsWith("LIB=") && /\.\.\/|cdktf-eks-karpenter\//.test(l));
  if (stray.length)
    throw new Error(`README "${SECTION}": reaches the checkout other than through $LIB: ${stray.join(" | ")}`);
  const pkg = path.join(work, "cdktf-eks-karpenter");
  fs.mkdirSync(pkg);
  sh("npm", ["pack", "--silent", "--pack-destination", pkg], { cwd: root });
  if (!fs.existsSync(path.join(pkg, tarball)))
    throw new Error(`npm pack wrote ${fs.readdirSync(pkg).join(", ")}, not ${tarball}`);

  const script = ["set -euo pipefail"];
  for (const b of blocks) {
    if (b.lang === "sh") script.push(b.body);
    else script.push(`cat > '${b.file}' <<'README_BLOCK_END'\n${b.body}README_BLOCK_END`);
  }
  fs.writeFileSync(path.join(work, "readme.sh"), script.join("\n"));
  // a user's shell: no CHECKPOINT_DISABLE unless the README sets it; npm quiet and cache first
  const env = {
    ...process.env,
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  delete env.CHECKPOINT_DISABLE;
  sh("bash", ["readme.sh"], { cwd: work, env });

  const stack = (name) =>
    JSON.parse(fs.readFileSync(path.join(work, "my-infra", "cdktf.out", "stacks", name, "cdk.tf.json"), "utf8"));
  const install = stack("karpenter");
  const charts = Object.values(install.resource.helm_release || {})
    .map((r) => r.chart)
    .sort();
  if (charts.join() !== "karpenter,karpenter-crd") throw new Error(`stack karpenter: helm releases ${charts}`);
  if (!install.resource.aws_sqs_queue || !install.resource.aws_iam_role)
    throw new Error("stack karpenter: no interruption queue or IAM roles");
  const kinds = Object.values(stack("karpenter-nodes").resource.kubernetes_manifest || {})
    .map((m) => m.manifest.kind)
    .sort();
  if (kinds.join() !== "EC2NodeClass,NodePool") throw new Error(`stack karpenter-nodes: manifests ${kinds}`);
  checkBadProp(path.join(work, "my-infra"), env);
  console.log(
    `README "${SECTION}": ${blocks.length} blocks run in ${work}/my-infra; stacks karpenter (Karpenter) and karpenter-nodes (EC2NodeClass, NodePool) synthesized`,
  );
} finally {
  if (!keep) fs.rmSync(work, { recursive: true, force: true });
}
process.exit(0);
