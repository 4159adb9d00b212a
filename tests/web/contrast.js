// The contrast of every visible text against every colour that can be behind it (see a11y.py).
(() => {
  const parse = (c) => { const m = c.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, base) => { const a = top[3]; return [0, 1, 2].map(i => top[i] * a + base[i] * (1 - a)).concat([1]); };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const out = [];
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || seen.has(el)) continue;
    seen.add(el);
    if (el.closest('svg, [aria-hidden=true], .sr-only, script, style, option, dialog:not([open]), [hidden], details:not([open]) > :not(summary)')) continue;
    const rect = el.getBoundingClientRect();
    if (!rect.width || !rect.height || getComputedStyle(el).visibility === 'hidden') continue;
    let opacity = 1;
    const layers = [];
    for (let a = el; a; a = a.parentElement) {
      const cs = getComputedStyle(a);
      opacity *= Number(cs.opacity);
      const stops = (cs.backgroundImage.match(/rgba?\([^)]*\)/g) || []).map(parse);
      const bg = parse(cs.backgroundColor);
      layers.push({ bg, stops });
      if (bg[3] === 1 && !stops.length) break;
    }
    let cands = [[255, 255, 255, 1]];
    for (const { bg, stops } of layers.reverse()) {
      if (bg[3] > 0) cands = cands.map(c => over(bg, c));
      if (stops.length) cands = cands.flatMap(c => stops.map(s => over(s, c))).slice(0, 64);
    }
    const fg = parse(getComputedStyle(el).color);
    fg[3] *= opacity;
    const worst = Math.min(...cands.map(c => ratio(over(fg, c), c)));
    if (worst < 4.5) out.push(`${worst.toFixed(2)}:1 ${el.tagName.toLowerCase()}.${el.className} "${node.textContent.trim().slice(0, 30)}"`);
  }
  return out;
})
