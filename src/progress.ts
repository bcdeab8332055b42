// Progress display for long CLI work: a bar on a terminal, sparse plain lines otherwise (CI logs, pipes).
import cliProgress from 'cli-progress';

export type ProgressFn = (done: number, total: number, stage: string) => void;

export type Progress = { update: ProgressFn; stop: () => void };

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) {
    let lastStage = '';
    let lastPct = -1;
    return {
      update(done, total, stage) {
        const pct = total > 0 ? Math.floor((100 * done) / total / 25) * 25 : 0;
        if (stage !== lastStage || pct !== lastPct) {
          stream.write(`${label}: ${stage} ${total > 0 ? `${Math.min(100, Math.round((100 * done) / total))}%` : ''}\n`);
          lastStage = stage;
          lastPct = pct;
        }
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: `${label} {stage} [{bar}] {percentage}% | {value}/{total}`, hideCursor: true, clearOnComplete: false, stream },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, stage) {
      if (!started) {
        bar.start(Math.max(1, total), done, { stage });
        started = true;
      }
      bar.setTotal(Math.max(1, total));
      bar.update(done, { stage });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
