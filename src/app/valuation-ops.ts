// The operations that value: each hands its validated input to the engine, whose worker resolves the subject, serves
// the one valuation and shapes this operation's answer (workers/answers). GET /api/underwrite's body comes back
// already serialized. Without an engine (tests that do not value) they answer 501 not_implemented.
import { JsonText } from '../contracts/reply.js';
import { AppError } from '../errors/app-error.js';
import type { EngineInputs, EngineOp } from '../workers/answers/index.js';
import type { ServiceContext } from './context.js';

export function valuationOperations(svc: ServiceContext) {
  const answer = async <Op extends EngineOp>(op: Op, input: EngineInputs[Op]): Promise<unknown> => {
    if (!svc.engine) throw new AppError('not_implemented', `${op} needs the valuation engine, which is not wired into this service`);
    return svc.engine.answer(op, input);
  };
  return {
    underwrite_rest: async (i: EngineInputs['underwrite_rest']) => new JsonText((await answer('underwrite_rest', i)) as string),
    property: (i: EngineInputs['property']) => answer('property', i),
    deep_underwrite_asset: (i: EngineInputs['deep_underwrite_asset']) => answer('deep_underwrite_asset', i),
    underwrite: (i: EngineInputs['underwrite']) => answer('underwrite', i),
    get_comps: (i: EngineInputs['get_comps']) => answer('get_comps', i),
    risk_report: (i: EngineInputs['risk_report']) => answer('risk_report', i),
  };
}
