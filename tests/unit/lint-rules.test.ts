/**
 * The product rules carried by lint (import direction, localized strings, no `.only`, no raw
 * `console`; docs/README.md#conventions) are part of the contract: each must reject
 * the code it exists to reject. Lints snippets as if they were files at the given paths.
 */
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const cwd = new URL("../..", import.meta.url).pathname;
// The snippets' paths are in no tsconfig project, so they are linted without type information;
// the rules under test here need none.
const eslint = new ESLint({ cwd, overrideConfig: tseslint.configs.disableTypeChecked });
// The type-aware rules, on a snippet given the path of a file its project holds.
const typed = new ESLint({ cwd });

async function ruleIds(code: string, filePath: string, linter = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe("lint product rules", () => {
  it("flags unlocalized text in ui and pages, not localized text", async () => {
    expect(await ruleIds("export const A = () => <p>Buy bitcoin now</p>;\n", "src/pages/Sample.tsx")).toContain(
      "lingui/no-unlocalized-strings",
    );
    expect(
      await ruleIds('export const A = () => <input placeholder="Your e-mail" />;\n', "src/ui/Sample.tsx"),
    ).toContain("lingui/no-unlocalized-strings");
    const ok =
      'import { Trans } from "@lingui/react/macro";\nexport const A = () => <p className="x"><Trans>Buy bitcoin now</Trans></p>;\n';
    expect(await ruleIds(ok, "src/pages/Sample.tsx")).not.toContain("lingui/no-unlocalized-strings");
    // The first lint loads ESLint's configuration and plugins: seconds on a loaded machine.
  }, 60_000);

  it("flags focused tests", async () => {
    const code = 'import { it } from "vitest";\nit.only("x", () => {});\n';
    expect(await ruleIds(code, "src/ui/sample.test.ts")).toContain("no-restricted-properties");
  });

  it("flags raw console and raw timers in src", async () => {
    expect(await ruleIds('console.log("x");\n', "src/ui/sample.ts")).toContain("no-console");
    expect(await ruleIds("setTimeout(() => {}, 5);\n", "src/ui/sample.ts")).toContain("no-restricted-globals");
    expect(await ruleIds("setInterval(() => {}, 5);\n", "src/workers/sample.ts")).toContain("no-restricted-globals");
  });

  it("keeps src/protocol free of other src folders and runtimes", async () => {
    const ids = await ruleIds('import { x } from "../ui/log";\nexport const y = x;\n', "src/protocol/sample.ts");
    expect(ids).toContain("no-restricted-imports");
    expect(
      await ruleIds('import { useState } from "react";\nexport const y = useState;\n', "src/protocol/sample.ts"),
    ).toContain("no-restricted-imports");
  });

  it("lets ui import only worker API types, and protocol only through its index", async () => {
    const value = await ruleIds(
      'import { api } from "../workers/market";\nexport const y = api;\n',
      "src/ui/sample.ts",
    );
    expect(value).toContain("@typescript-eslint/no-restricted-imports");
    const typeOnly = await ruleIds(
      'import type { Api } from "../workers/market";\nexport type Y = Api;\n',
      "src/ui/sample.ts",
    );
    expect(typeOnly).not.toContain("@typescript-eslint/no-restricted-imports");
    const deep = await ruleIds(
      'import { LOCALES } from "../protocol/locales";\nexport const y = LOCALES;\n',
      "src/ui/sample.ts",
    );
    expect(deep).toContain("@typescript-eslint/no-restricted-imports");
  });

  it("keeps workers away from the main thread's code", async () => {
    const ids = await ruleIds(
      'import { settings } from "../ui/settings/store";\nexport const y = settings;\n',
      "src/workers/sample.ts",
    );
    expect(ids).toContain("no-restricted-imports");
  });

  it("keeps the exchange off the front end's code: only src/protocol", async () => {
    const worker = await ruleIds(
      'import { Connection } from "../../src/workers/core/index.ts";\nexport const y = Connection;\n',
      "server/exchange/sample.ts",
    );
    expect(worker).toContain("no-restricted-imports");
    const ui = await ruleIds('import { log } from "../src/ui/log.ts";\nexport const y = log;\n', "server/sample.ts");
    expect(ui).toContain("no-restricted-imports");
    const protocol = await ruleIds(
      'import { crc32 } from "../../src/protocol/index.ts";\nexport const y = crc32;\n',
      "server/exchange/sample.ts",
    );
    expect(protocol).not.toContain("no-restricted-imports");
    // A test may drive the worker's client against the exchange.
    const conformance = await ruleIds(
      'import { Connection } from "../../src/workers/core/index.ts";\nexport const y = Connection;\n',
      "server/exchange/sample.test.ts",
    );
    expect(conformance).not.toContain("no-restricted-imports");
  });

  it("runs the type-aware rules: a floating promise, an object turned into text", async () => {
    const code =
      "async function load(): Promise<number> {\n  return Promise.resolve(1);\n}\nload();\nexport const s = String({});\n";
    const ids = await ruleIds(code, "src/protocol/random.ts", typed);
    expect(ids).toContain("@typescript-eslint/no-floating-promises");
    expect(ids).toContain("@typescript-eslint/no-base-to-string");
    // The first type-aware lint builds the file's project (src/protocol, the smallest).
  }, 60_000);

  it("enforces the react-hooks rules", async () => {
    const code =
      'import { useState } from "react";\nexport function A({ on }: { on: boolean }) {\n  if (on) useState(1);\n  return null;\n}\n';
    expect(await ruleIds(code, "src/ui/Sample.tsx")).toContain("react-hooks/rules-of-hooks");
  });
});
