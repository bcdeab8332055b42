export function appHtml(parts: { js: string; css: string }): string;
export function buildApp(options?: { root?: string }): Promise<{ file: string; bytes: number }>;
