/**
 * Every message of each source catalog (en: core and every area) exists in all seven locales with a
 * real translation. `npm test` runs `lingui extract` first, so a new message in the code that is not
 * translated everywhere fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../../src/protocol/index.ts";
import { CATALOG_AREAS } from "../../scripts/catalog-areas.mjs";

interface Entry {
  readonly id: string;
  readonly str: string;
}

/** A small reader for the .po files lingui writes: msgid / msgstr pairs, multi-line strings joined. */
function readPo(catalog: string, locale: string): Entry[] {
  const text = readFileSync(new URL(`../../locales/${catalog}${locale}.po`, import.meta.url), "utf8");
  const entries: Entry[] = [];
  let id: string | null = null;
  let str: string | null = null;
  let field: "id" | "str" | null = null;
  let obsolete = false;
  const flush = (): void => {
    if (id !== null && id !== "" && !obsolete) entries.push({ id, str: str ?? "" });
    id = null;
    str = null;
    field = null;
    obsolete = false;
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("#~")) obsolete = true;
    if (line.startsWith("msgid ")) {
      if (id !== null) flush();
      id = JSON.parse(line.slice(6)) as string;
      field = "id";
    } else if (line.startsWith("msgstr ")) {
      str = JSON.parse(line.slice(7)) as string;
      field = "str";
    } else if (line.startsWith('"') && field) {
      const part = JSON.parse(line) as string;
      if (field === "id") id = (id ?? "") + part;
      else str = (str ?? "") + part;
    } else if (line === "") {
      flush();
    }
  }
  flush();
  return entries;
}

/** Core (`locales/{locale}.po`) and each area (`locales/{area}/{locale}.po`). */
const CATALOGS = ["", ...CATALOG_AREAS.map((a) => `${a}/`)];

/** Words that are spelled the same in the target language (checked by a native reading). */
const SAME_IN: Record<string, readonly string[]> = {
  "es-EM": ["Experimental", "Trading", "Total"],
  "pt-BR": ["Experimental", "Total"],
};

describe.each(CATALOGS)("catalog locales/%s{locale}.po", (catalog) => {
  const source = readPo(catalog, "en");

  it("the source catalog has messages", () => {
    expect(source.length).toBeGreaterThan(50);
  });

  it.each(LOCALES.filter((l) => l !== "en"))("%s translates every message", (locale) => {
    const entries = new Map(readPo(catalog, locale).map((e) => [e.id, e.str]));
    const missing = source.filter((e) => !(entries.get(e.id) ?? "").trim()).map((e) => e.id);
    expect(missing, `untranslated in ${locale}`).toEqual([]);
    // A "translation" identical to the English text is a copy, unless the text has no words.
    const copied = source
      .filter((e) => /\p{L}{4,}/u.test(e.id.replace(/\{[^}]*\}/g, "")) && entries.get(e.id) === e.id)
      .filter((e) => !(SAME_IN[locale] ?? []).includes(e.id))
      .map((e) => e.id);
    expect(copied, `copied from English in ${locale}`).toEqual([]);
  });

  it.each(LOCALES.filter((l) => l !== "en"))("%s keeps every placeholder of the source", (locale) => {
    const entries = new Map(readPo(catalog, locale).map((e) => [e.id, e.str]));
    for (const e of source) {
      const placeholders = (s: string): string[] => (s.match(/\{[^}]+\}/g) ?? []).sort();
      expect(placeholders(entries.get(e.id) ?? ""), `${locale}: ${e.id}`).toEqual(placeholders(e.id));
    }
  });
});
