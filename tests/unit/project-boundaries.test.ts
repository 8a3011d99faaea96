/**
 * The import direction between the folders is enforced by the TypeScript projects (one tsconfig per
 * environment, joined by references): a project can import another project's code only when it
 * references that project, or `tsc -b` fails with TS6307 ("not listed within the file list of
 * project"). Each case compiles probe files that exist only in memory, as if they lived in the given
 * folder, under that folder's tsconfig, and reports which imported files the project refused.
 */
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;

function parseProject(tsconfig: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, tsconfig), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  return parsed;
}

/**
 * For each import specifier, the files `tsconfig` refuses (TS6307, relative to the root) when a file
 * in `folder` imports it. One program per call: building it is the slow part.
 */
function refusedImports(tsconfig: string, folder: string, specifiers: readonly string[]): string[][] {
  const project = parseProject(tsconfig);
  const probes = new Map(
    specifiers.map((from, i) => [
      join(root, folder, `boundary-probe-${i}.ts`),
      `import * as probed from "${from}";\nexport const used = probed;\n`,
    ]),
  );
  const host = ts.createCompilerHost(project.options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => probes.get(f) ?? readFile(f);
  host.fileExists = (f) => probes.has(f) || fileExists(f);
  host.getSourceFile = (f, lang, onError, create) => {
    const text = probes.get(f);
    return text === undefined ? getSourceFile(f, lang, onError, create) : ts.createSourceFile(f, text, lang);
  };
  // Referenced projects are read from their sources (as the editor does), so the test needs no
  // prior `tsc -b` for their declaration output.
  Object.assign(host, { useSourceOfProjectReferenceRedirect: () => true });
  const program = ts.createProgram({
    rootNames: [...project.fileNames, ...probes.keys()],
    options: project.options,
    projectReferences: project.projectReferences ?? [],
    host,
  });
  const message = (d: ts.Diagnostic): string => ts.flattenDiagnosticMessageText(d.messageText, "\n");
  return [...probes.keys()].map((probe) => {
    const diagnostics = program.getSemanticDiagnostics(program.getSourceFile(probe));
    const unresolved = diagnostics.filter((d) => d.code === 2307).map(message);
    if (unresolved.length > 0) throw new Error(`probe import did not resolve: ${unresolved.join("; ")}`);
    return diagnostics.filter((d) => d.code === 6307).map((d) => (message(d).split("'")[1] ?? "").slice(root.length));
  });
}

// Building a program over a whole project takes seconds on a loaded machine.
const SLOW = 60_000;

describe("TypeScript project boundaries", () => {
  it(
    "keeps the embedded exchange off the front end's worker and UI code",
    () => {
      const [workers, ui, protocol] = refusedImports("tsconfig.node.json", "server/exchange", [
        "../../src/workers/core/index.ts",
        "../../src/ui/log.ts",
        "../../src/protocol/index.ts",
      ]);
      expect(workers).toContain("src/workers/core/index.ts");
      expect(ui).toContain("src/ui/log.ts");
      expect(protocol).toEqual([]);
      // Nor on its tests' helpers.
      const [helpers] = refusedImports("tsconfig.node.json", "server", ["./test-support/api.ts"]);
      expect(helpers).toContain("server/test-support/api.ts");
    },
    SLOW,
  );

  it(
    "lets the bench drive the worker's core and the exchange, and nothing of the UI",
    () => {
      const [workers, server, ui] = refusedImports("bench/tsconfig.json", "bench", [
        "../src/workers/core/index.ts",
        "../server/exchange/venue.ts",
        "../src/ui/log.ts",
      ]);
      expect(workers).toEqual([]);
      expect(server).toEqual([]);
      expect(ui).toContain("src/ui/log.ts");
    },
    SLOW,
  );

  it(
    "keeps the threads apart: worker and main thread meet only in src/protocol",
    () => {
      expect(refusedImports("src/workers/tsconfig.json", "src/workers", ["../ui/log"])[0]).toContain("src/ui/log.ts");
      const [worker, testSupport] = refusedImports("tsconfig.app.json", "src/ui", [
        "../workers/scheduler",
        "./test-support/account",
      ]);
      expect(worker).toContain("src/workers/scheduler.ts");
      // Test helpers stay out of the product.
      expect(testSupport).toContain("src/ui/test-support/account.ts");
      expect(refusedImports("src/protocol/tsconfig.json", "src/protocol", ["../workers/scheduler"])[0]).toContain(
        "src/workers/scheduler.ts",
      );
    },
    SLOW,
  );
});
