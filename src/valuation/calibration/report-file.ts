// Report files the CLI writes (`calibrate --html FILE`, `backtest --report FILE`): the path is checked before any work
// and a failed write is one `validation_failed` line naming the option, not a stack trace after minutes of work.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppError } from '../../errors/app-error.js';

/** The absolute path of `--<option> FILE`; refuses a directory. */
export function reportPath(option: string, file: string): string {
  const abs = resolve(file);
  if (existsSync(abs) && statSync(abs).isDirectory()) throw new AppError('validation_failed', `--${option} ${abs} is a directory; give a file path`);
  return abs;
}

/** Writes the report (creating its folder). */
export function writeReportFile(option: string, file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new AppError('validation_failed', `cannot write --${option} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
