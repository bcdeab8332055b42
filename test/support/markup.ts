// A strict well-formedness check of generated markup (tests only): every tag closes in order, attribute values are
// quoted, and text holds no raw `<` or a bare `&` that is not an entity. No XML parser is installed; this is the
// subset of XML the report's builder emits, so anything outside it is reported rather than guessed at.
const TOKEN = /<!DOCTYPE[^>]*>|<!--[\s\S]*?-->|<\/([A-Za-z][\w:-]*)\s*>|<([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?![a-zA-Z]+;|#\d+;|#x[0-9a-fA-F]+;)/g;

/** Problems found in `markup` (empty = well-formed); `voids` = HTML elements that never close (meta, br…). */
export function markupProblems(markup: string, voids: readonly string[] = []): string[] {
  const stack: string[] = [];
  const problems: string[] = [];
  for (const m of markup.matchAll(TOKEN)) {
    const [tok, close, open, , selfClose] = m;
    if (tok === '<' || tok === '&') problems.push(`raw ${tok} at ${m.index}: ${markup.slice(m.index, m.index + 40)}`);
    else if (close) {
      const top = stack.pop();
      if (top !== close) problems.push(`</${close}> closes <${top ?? 'nothing'}> at ${m.index}`);
    } else if (open && !selfClose && !voids.includes(open.toLowerCase())) stack.push(open);
  }
  if (stack.length) problems.push(`unclosed: ${stack.join(' > ')}`);
  return problems;
}
