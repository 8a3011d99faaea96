// Lint carries the product rules (docs/README.md#conventions): no unlocalized strings in ui/pages, no `.only`,
// no raw console, react-hooks rules, no raw timers outside the owned schedulers, and the import
// direction between the thread folders.
import js from "@eslint/js";
import lingui from "eslint-plugin-lingui";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const ONLY = [
  { object: "describe", property: "only", message: "Focused tests hide the rest of the suite." },
  { object: "it", property: "only", message: "Focused tests hide the rest of the suite." },
  { object: "test", property: "only", message: "Focused tests hide the rest of the suite." },
];

const RAW_TIMERS = ["setTimeout", "setInterval", "requestAnimationFrame", "clearTimeout", "clearInterval"].map(
  (name) => ({
    name,
    message:
      "Use the owned scheduler (src/ui/scheduler.ts or src/workers/scheduler.ts) so the timer dies with its owner.",
  }),
);

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      "coverage/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
      "public/sw.js",
    ],
  },
  js.configs.recommended,
  // Type-aware rules on every file: each file's own tsconfig project gives the types (the solution
  // tsconfig.json and the per-folder ones in src/*, bench/ and scripts/); this config file is the
  // one file outside every project.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ["eslint.config.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "no-console": "error",
      "no-restricted-properties": ["error", ...ONLY],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  // Plain JavaScript has no annotations: whatever comes from JSON.parse, page.evaluate or an untyped
  // package is `any`, and the no-unsafe-* rules would ask only for casts. The other type-aware
  // rules (promises, awaits, stringification) hold there too.
  {
    files: ["**/*.{js,mjs}"],
    rules: {
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  // Scripts, the bench and the server's entry print to the terminal on purpose.
  { files: ["scripts/**", "bench/**/*.ts", "bench/**/*.mjs", ".ci/**"], rules: { "no-console": "off" } },
  // Bench scripts also run code inside the browser page (page.evaluate).
  { files: ["bench/**/*.mjs"], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    rules: { "no-restricted-globals": ["error", ...RAW_TIMERS] },
  },
  {
    files: ["src/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-globals": "off" },
  },
  {
    files: ["src/ui/**/*.{ts,tsx}", "src/pages/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, lingui },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...lingui.configs["flat/recommended"].rules,
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/workers/**", "**/workers"],
              allowTypeImports: true,
              message: "The main thread reaches the worker only through its bridge and API types.",
            },
            { group: ["**/protocol/*"], message: "Import src/protocol through its index." },
            { group: ["node:*"], message: "Browser code cannot use Node modules." },
          ],
        },
      ],
    },
  },
  {
    files: ["src/ui/**/*.tsx", "src/pages/**/*.tsx", "src/ui/**/*.ts", "src/pages/**/*.ts"],
    ignores: ["**/*.test.*", "**/*.css.ts", "**/test-support/**"],
    rules: {
      "lingui/no-unlocalized-strings": [
        "error",
        {
          ignore: [
            // Not words: identifiers, keys, CSS, URLs, paths, MIME types, symbols and numbers.
            "^(?![A-Z])\\S+$",
            "^[A-Z0-9_:./-]+$",
            // No letters at all (numbers, symbols, punctuation). Plain ranges: the rule's regexes have no u flag.
            "^[^a-zA-Z\\u00C0-\\u024F\\u0400-\\u04FF\\u4E00-\\u9FFF]*$",
            "^Orderflow$",
          ],
          ignoreNames: [
            {
              regex: {
                pattern: "className|testid|^aria-(?!label)|^data-|^on[A-Z]|Key$|^key$|^id$|^rel$|^lang$",
                flags: "i",
              },
            },
            { regex: { pattern: "^[A-Z0-9_]+$" } },
            "type",
            "name",
            "href",
            "to",
            "role",
            "autoComplete",
            "method",
            "value",
            "path",
            "step",
          ],
          ignoreFunctions: [
            "Error",
            "log.*",
            "*.addEventListener",
            "*.removeEventListener",
            "*.dispatchEvent",
            "CustomEvent",
            "*.getElementById",
            "*.querySelector",
            "*.querySelectorAll",
            "*.closest",
            "*.matchMedia",
            "*.setItem",
            "*.getItem",
            "*.removeItem",
            "*.includes",
            "*.startsWith",
            "*.endsWith",
            "*.test",
            "*.get",
            "*.set",
            "fetch",
            "apiUrl",
            "navigate",
            "updateSetting",
            "URL",
            "URLSearchParams",
            "setState",
            "setError",
            "import",
          ],
        },
      ],
    },
  },
  {
    files: ["src/protocol/**/*.ts"],
    // Tests run in Node and may use its modules as oracles (zlib's CRC-32, fs for recordings).
    ignores: ["src/protocol/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/ui/**", "**/ui", "**/pages/**", "**/workers/**", "**/server/**"],
              message: "src/protocol imports nothing else in src.",
            },
            {
              group: ["react", "react-dom", "valtio", "comlink", "wouter", "node:*"],
              message: "src/protocol is pure TypeScript.",
            },
          ],
        },
      ],
    },
  },
  {
    // The exchange serves the front end and shares only the wire format with it (src/protocol).
    // Its tests may drive the worker's own client against it (conformance), as any test may import
    // anything; tsc enforces the same on the product code (tsconfig.node.json references only
    // src/protocol).
    files: ["server/**/*.ts"],
    ignores: ["server/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "**/src/ui/**",
                "**/src/ui",
                "**/src/pages/**",
                "**/src/pages",
                "**/src/workers/**",
                "**/src/workers",
              ],
              message: "The exchange imports only src/protocol from src.",
            },
            { group: ["react", "react-dom", "valtio", "comlink", "wouter"], message: "The exchange is Node code." },
          ],
        },
      ],
    },
  },
  {
    files: ["src/workers/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/ui/**", "**/ui", "**/pages/**", "**/pages", "react", "react-dom", "valtio"],
              message: "Workers see only src/protocol.",
            },
            { group: ["**/protocol/*"], message: "Import src/protocol through its index." },
          ],
        },
      ],
    },
  },
);
