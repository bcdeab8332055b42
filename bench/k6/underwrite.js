// k6 script of the load benchmark (bench/load.bench.ts runs it): GET /api/underwrite at a constant ARRIVAL rate (an
// open model: a new request starts every 1/RATE s whether or not earlier ones have answered), keyed, cycling through
// the subjects the bench passes in. Environment: BASE, TOKEN, PATHS (JSON array), RATE, DURATION, VUS.
import http from 'k6/http';
import exec from 'k6/execution';

const paths = JSON.parse(__ENV.PATHS);
const params = { headers: { Authorization: `Bearer ${__ENV.TOKEN}` } };

export const options = {
  scenarios: {
    underwrite: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE),
      timeUnit: '1s',
      duration: __ENV.DURATION,
      preAllocatedVUs: Number(__ENV.VUS),
      maxVUs: 4 * Number(__ENV.VUS),
    },
  },
  summaryTrendStats: ['med', 'p(90)', 'p(99)', 'max'],
  discardResponseBodies: true,
};

export default function () {
  http.get(`${__ENV.BASE}${paths[exec.scenario.iterationInTest % paths.length]}`, params);
}
