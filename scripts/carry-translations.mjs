#!/usr/bin/env node
// After a change that moves messages between catalogs (locales/README.md), fills each catalog's
// empty translations from an earlier copy of the catalogs, by message id, in lingui's own .po
// format. Usage: node scripts/carry-translations.mjs <copy of the previous locales/>
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatter } from "@lingui/format-po";

const [previous] = process.argv.slice(2);
if (!previous) {
  console.error("usage: node scripts/carry-translations.mjs <copy of the previous locales/>");
  process.exit(2);
}
const po = formatter({ lineNumbers: false });
const TARGETS = ["ru", "zh-CN", "zh-TW", "es-EM", "tr-TR", "pt-BR"];
const dirsOf = (root) => [
  root,
  ...readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(root, d.name)),
];
const read = async (file, locale) => po.parse(readFileSync(file, "utf8"), { locale, filename: file });

for (const locale of TARGETS) {
  const known = new Map();
  for (const dir of dirsOf(previous)) {
    const file = join(dir, `${locale}.po`);
    if (!existsSync(file)) continue;
    for (const [id, m] of Object.entries(await read(file, locale))) if (m.translation) known.set(id, m.translation);
  }
  for (const dir of dirsOf("locales")) {
    const file = join(dir, `${locale}.po`);
    if (!existsSync(file)) continue;
    const catalog = await read(file, locale);
    let filled = 0;
    for (const [id, m] of Object.entries(catalog))
      if (!m.translation && known.has(id)) {
        m.translation = known.get(id);
        filled++;
      }
    if (filled === 0) continue;
    const existing = readFileSync(file, "utf8");
    writeFileSync(file, await po.serialize(catalog, { locale, existing, filename: file, sourceLocale: "en" }));
    console.log(`${file}: ${filled} translations carried over`);
  }
}
