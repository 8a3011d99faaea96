/** Public surface of src/protocol: import from here, never from a file inside the folder. */
export * from "./constants";
export * from "./locales";
export * from "./platform";
export * from "./scheduler";
export * from "./book/index";
export * from "./crc32";
export * from "./frames";
export * from "./symbols";
export * from "./scan";
export * from "./market-api";
export * from "./positional";
export * from "./records";
export * from "./errors";
export * from "./format";
export * from "./random";
