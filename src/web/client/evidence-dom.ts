// DOM building for the evidence panel: every piece of text goes in through textContent (never innerHTML), so an
// address, a reason or a message from the service can never become markup.

/** Optional class name and text of an element. */
export type ElOptions = { cls?: string; text?: string; attrs?: Record<string, string> };

/** One element of `doc` with its class, text and attributes, and the given children appended. */
export function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, opts: ElOptions = {}, ...children: Node[]): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  if (opts.cls) node.className = opts.cls;
  if (opts.text !== undefined) node.textContent = opts.text;
  for (const [k, v] of Object.entries(opts.attrs ?? {})) node.setAttribute(k, v);
  for (const child of children) node.appendChild(child);
  return node;
}

/** A table with a header row and one row per entry, every cell as text. */
export function table(doc: Document, cls: string, head: readonly string[], rows: readonly (readonly string[])[]): HTMLTableElement {
  const headRow = el(doc, 'tr', {}, ...head.map((h) => el(doc, 'th', { text: h, attrs: { scope: 'col' } })));
  const body = el(doc, 'tbody', {}, ...rows.map((r) => el(doc, 'tr', {}, ...r.map((cell) => el(doc, 'td', { text: cell })))));
  return el(doc, 'table', { cls }, el(doc, 'thead', {}, headRow), body);
}

/** A definition list of label → value pairs (values already formatted). */
export function facts(doc: Document, cls: string, pairs: readonly (readonly [string, string])[]): HTMLDListElement {
  const dl = el(doc, 'dl', { cls });
  for (const [k, v] of pairs) dl.append(el(doc, 'dt', { text: k }), el(doc, 'dd', { text: v }));
  return dl;
}
