export function contentType(path: string): string;
export function fileFor(dir: string, urlPath: string): string | null;
export function serveStatic(dir: string, port?: number): Promise<{ url: string; close: () => Promise<void> }>;
