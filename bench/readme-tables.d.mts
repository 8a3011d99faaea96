export function renderReadme(text: string, blocks: Record<string, string>): string;
export function abTable(ab: unknown, file: string): string;
export function coreTable(core: unknown): string;
export function rateTable(core: unknown): string;
export function uiTable(ui: unknown): string;
export function peersTable(ui: unknown): string;
export function updateReadme(options?: { report?: string }): Promise<string>;
