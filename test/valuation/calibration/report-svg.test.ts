// The hand-drawn SVG primitives of the report page: escaping, the element builder, scales, ticks, axes.
import { describe, expect, it } from 'vitest';
import { axisBottom, bandScale, el, escapeHtml, linearScale, niceTicks, svgFrame } from '../../../src/valuation/calibration/html/svg.js';
import { reliabilityDomain } from '../../../src/valuation/calibration/html/charts.js';
import { markupProblems } from '../../support/markup.js';

describe('svg primitives', () => {
  it('escapes the five XML-significant characters in text and attributes; drops null attributes', () => {
    expect(escapeHtml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
    expect(el('text', { x: 1.005, y: 2, 'data-k': '"><script>', skip: null }, escapeHtml('<b>'))).toBe('<text x="1" y="2" data-k="&quot;&gt;&lt;script&gt;">&lt;b&gt;</text>');
  });

  it('linear scale maps the domain onto the range, inverted ranges included', () => {
    const y = linearScale([0, 100], [400, 0]);
    expect([y(0), y(25), y(100)]).toEqual([400, 300, 0]);
    expect(linearScale([5, 5], [0, 10])(5)).toBe(0);
  });

  it('ticks fall on 1-2-5 steps inside the domain', () => {
    expect(niceTicks(0, 100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(-0.6, 0.6, 6)).toEqual([-0.6, -0.4, -0.2, 0, 0.2, 0.4, 0.6]);
    expect(niceTicks(0, 7, 3)).toEqual([0, 5]);
    expect(niceTicks(3, 3)).toEqual([3]);
  });

  it('band scale spreads keys evenly', () => {
    const b = bandScale(['a', 'b'], [0, 100], 0.5);
    expect([b.at('a'), b.at('b'), b.bandwidth]).toEqual([12.5, 62.5, 25]);
  });

  it('an axis in a frame is well-formed markup', () => {
    const svg = svgFrame(200, 80, 'a & b', axisBottom(linearScale([0, 1], [10, 190]), 40, [0, 0.5, 1], String, 'x <label>'));
    expect(markupProblems(svg)).toEqual([]);
    expect(svg).toContain('aria-label="a &amp; b"');
    expect(svg).toContain('>x &lt;label&gt;</text>');
    expect(markupProblems('<svg><g></svg>')).not.toEqual([]);
    expect(markupProblems('<svg><text>a < b</text></svg>')).not.toEqual([]);
  });
});

describe('reliability chart domain', () => {
  const bin = (meanPredicted: number, ciLo: number, ciHi: number) => ({ lo: 0, hi: 5, n: 10, meanPredicted, observed: meanPredicted, ciLo, ciHi });
  it('zooms to what is drawn, padded to tens, at least 20 points, within 0-100', () => {
    expect(reliabilityDomain({ bins: [bin(58.6, 56.3, 59.5), bin(61.3, 59.1, 61.4)], points: [{ key: 'a', predicted: 55.1, n: 5, observed: 40 }], nRated: 25, nUnrated: 0 })).toEqual([30, 70]);
    expect(reliabilityDomain({ bins: [bin(60, 59, 61)], points: [], nRated: 10, nUnrated: 0 })).toEqual([50, 70]);
    expect(reliabilityDomain({ bins: [bin(97, 95, 99.5)], points: [], nRated: 10, nUnrated: 0 })).toEqual([80, 100]);
    expect(reliabilityDomain({ bins: [], points: [], nRated: 0, nUnrated: 0 })).toEqual([0, 100]);
  });
});
