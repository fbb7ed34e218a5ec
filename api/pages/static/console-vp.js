// A VP table as the director types it: one band a line, "from, to,
// winner's VP, loser's VP" (the last band without its to). Shared by the
// new-tournament form and the phases' set-up (console-phases.js).

// parseBands reads the lines into the API's bands.
export function parseBands(text) {
  const bands = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const f = line.split(/[,;\s]+/).filter((x) => x !== '');
    const n = (x) => (x === undefined || x === '' || x === '-' ? undefined : Number(x));
    bands.push({ from: n(f[0]), to: f.length >= 4 ? n(f[1]) : undefined, winner: n(f[f.length - 2]), loser: n(f[f.length - 1]) });
  }
  return bands;
}

// bandsText writes bands back as parseBands reads them.
export function bandsText(bands) {
  return (bands || []).map((b) => (b.to === undefined || b.to === null
    ? [b.from, b.winner, b.loser] : [b.from, b.to, b.winner, b.loser]).join(', ')).join('\n');
}
