export function appHtml(parts: { js: string; css: string }): string;
export const APP_HTML: string;
export const APP_ENTRY: string;
export function buildApp(options?: { root?: string }): { file: string; bytes: number };
