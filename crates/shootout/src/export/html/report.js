'use strict';
// Draws the report from the figures shootout embedded (#report-data); computes
// nothing that the Rust side did not already compute, except layout.
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const root = document.getElementById('report');
  // The page of a run or a report has results; that of one matrix alone
  // (evolution or robustness --export-html) has only its section.
  const hasResults = data.formats !== undefined;
  const formats = hasResults ? data.formats : [];
  const LANGUAGE_COLORS = { rust: '#c2410c', go: '#0891b2', java: '#4f46e5' };
  const EXTRA_COLORS = ['#15803d', '#a21caf', '#854d0e', '#be123c'];
  const languages = [...new Set(formats.map(f => f.language))];
  const charts = {};
  const chartPoints = {};
  // Attachments' charts, drawn once their sections are on the page.
  const afterAttach = [];
  // Formats that pass the feature filters; every chart and table shows only these.
  let shown = formats.map(() => true);

  Chart.defaults.animation = false;
  Chart.defaults.font.size = 11;
  Chart.defaults.maintainAspectRatio = false;

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === 'class') node.className = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children.flat(Infinity)) {
      if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  const languageColor = language =>
    LANGUAGE_COLORS[language] || EXTRA_COLORS[languages.indexOf(language) % EXTRA_COLORS.length];
  const formatColor = i => `hsl(${(i * 137.508) % 360}, 62%, 44%)`;
  const name = f => (data.several_languages ? `${f.language} · ${f.name}` : f.name);
  const number = (value, digits = 3) =>
    value === null || value === undefined || Number.isNaN(value) ? 'n/a'
      : Math.abs(value) >= 10 ** digits ? Math.round(value).toLocaleString('en') : Number(value.toPrecision(digits)).toString();
  const measured = () => formats.map((f, i) => i).filter(i => shown[i] && !formats[i].baseline);
  // "≤N" as in the terminal tables: a latency within 5× the clock's resolution.
  const latency = (f, ns) => (ns < f.flag_below_ns ? `≤${f.flag_below_ns}` : number(ns));

  // Logarithmic axes label 1, 2 and 5 of each decade only.
  const logTicks = {
    callback: v => {
      const mantissa = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
      return [1, 2, 5].some(k => Math.abs(mantissa - k) < 1e-6) ? number(v) : '';
    },
  };

  function section(id, title, ...children) {
    return el('section', { id }, el('h2', {}, title), ...children);
  }

  function chartBox(id, height) {
    return el('div', { class: 'chart', style: `height:${height}px` }, el('canvas', { id: `chart-${id}` }));
  }

  function draw(id, config, points) {
    if (charts[id]) charts[id].destroy();
    charts[id] = new Chart(document.getElementById(`chart-${id}`), config);
    chartPoints[id] = points;
  }

  const PERCENTILE_TICKS = [[1, 'min'], [2, 'p50'], [10, 'p90'], [100, 'p99'], [1000, 'p99.9'], [10000, 'p99.99'], [100000, 'p99.999'], [1000000, 'p99.9999']];

  // Percentile curves: percentile on a log-odds axis (x = 1 / (1 − q)), the value on a log axis.
  function drawPercentileCurves(id, datasets, yTitle, unit) {
    draw(id, {
      type: 'line',
      data: { datasets },
      options: {
        interaction: { mode: 'nearest', intersect: false },
        scales: {
          x: {
            type: 'logarithmic', min: 1, title: { display: true, text: 'percentile' },
            afterBuildTicks: axis => { axis.ticks = PERCENTILE_TICKS.filter(([v]) => v >= axis.min && v <= axis.max).map(([value]) => ({ value })); },
            ticks: { callback: v => (PERCENTILE_TICKS.find(([t]) => t === v) || [v, ''])[1] },
          },
          y: { type: 'logarithmic', title: { display: true, text: yTitle }, ticks: logTicks },
        },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { title: items => items.length ? `p${(100 * (1 - 1 / items[0].parsed.x)).toPrecision(6).replace(/\.?0+$/, '')}` : '', label: c => `${c.dataset.label}: ${number(c.parsed.y)} ${unit}` } },
        },
      },
    }, datasets.reduce((n, d) => n + d.data.length, 0));
  }

  // 95 % intervals as whiskers over horizontal bars (dataset field `intervals`).
  const whiskers = {
    id: 'whiskers',
    afterDatasetsDraw(chart) {
      const { ctx, scales } = chart;
      chart.data.datasets.forEach((dataset, d) => {
        if (!dataset.intervals) return;
        chart.getDatasetMeta(d).data.forEach((bar, i) => {
          const interval = dataset.intervals[i];
          if (!interval) return;
          const low = scales.x.getPixelForValue(interval.low);
          const high = scales.x.getPixelForValue(interval.high);
          ctx.save();
          ctx.strokeStyle = '#111';
          ctx.beginPath();
          ctx.moveTo(low, bar.y); ctx.lineTo(high, bar.y);
          ctx.moveTo(low, bar.y - 4); ctx.lineTo(low, bar.y + 4);
          ctx.moveTo(high, bar.y - 4); ctx.lineTo(high, bar.y + 4);
          ctx.stroke();
          ctx.restore();
        });
      });
    },
  };

  // Names beside the points of a dataset with `named: true` (the Pareto front).
  const pointNames = {
    id: 'pointNames',
    afterDatasetsDraw(chart) {
      const { ctx } = chart;
      chart.data.datasets.forEach((dataset, d) => {
        if (!dataset.named || !chart.isDatasetVisible(d)) return;
        ctx.save();
        ctx.font = '600 11px system-ui, sans-serif';
        ctx.fillStyle = '#111';
        chart.getDatasetMeta(d).data.forEach((point, i) => ctx.fillText(dataset.data[i].name, point.x + 7, point.y - 6));
        ctx.restore();
      });
    },
  };

  function header() {
    const w = data.workload;
    const input = w.input ? ` (${w.input.bytes.toLocaleString('en')} bytes, sha256 ${w.input.sha256.slice(0, 16)}…)` : '';
    return el('header', {},
      el('h1', {}, `shootout: ${w.name}`),
      el('p', { class: 'lead' }, `${w.records.toLocaleString('en')} records from ${w.source}${input} · `
        + `${formats.filter(f => !f.baseline).length} formats in ${languages.join(', ')}`),
      el('section', { id: 'verdict', class: 'verdict' }, el('h2', {}, 'Verdict'),
        el('ul', {}, data.verdict.map(line => el('li', {}, line))),
        el('ul', { class: 'header' }, data.header.map(line => el('li', {}, line)))),
      el('details', { class: 'method' }, el('summary', {}, 'How these figures were taken'),
        el('ul', { class: 'method' }, data.method.map(line => el('li', {}, line)))),
      data.warnings.length ? el('div', {}, el('h3', {}, `Warnings (${data.warnings.length})`),
        el('ul', { class: 'warnings' }, data.warnings.map(w => el('li', {}, w.length > 240
          ? el('details', {}, el('summary', {}, `${w.slice(0, 200)}…`), w) : w)))) : el('p', { class: 'note' }, 'No warnings.'),
      data.withheld.length ? el('div', {}, el('h3', {}, 'Not measured'),
        el('ul', { class: 'withheld' }, data.withheld.map(w => el('li', {}, w)))) : null);
  }

  function provenance() {
    const value = v => (Array.isArray(v) ? (v.length > 8 ? el('details', {}, el('summary', {}, `${v.length} items`), v.join(' ')) : v.join(' '))
      : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
    const table = object => el('table', {}, Object.entries(object).map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, value(v)))));
    const file = f => (f ? `${f.path} · ${f.bytes.toLocaleString('en')} bytes · sha256 ${f.sha256}` : 'none');
    return section('provenance', 'Environment and provenance',
      data.runners.map(r => el('details', { open: '' },
        el('summary', {}, `${r.language}: ${r.name}`),
        el('p', {}, 'Command: ', el('code', {}, r.command_line.join(' '))),
        el('p', {}, `Input: ${file(r.input)}`, r.dataset ? ` · dataset read: ${file(r.dataset)}` : ''),
        el('div', { class: 'row' },
          el('div', {}, el('h3', {}, 'Machine and build'), table(r.environment)),
          el('div', {}, el('h3', {}, 'Settings'), table(r.settings), el('h3', {}, 'Clock'), table(r.timer))))));
  }

  // One filter per feature-matrix column: yes/no for flags, a choice for short
  // lists of values, "contains" for prose. The matrix itself is drawn per family
  // near the foot of the page; the filters sit at the top since every view follows them.
  // A row's nested groups (e.g. traits) become columns of their own: "traits.binary".
  const flatten = features => Object.fromEntries(Object.entries(features || {}).flatMap(([key, value]) =>
    (value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).map(([inner, v]) => [`${key}.${inner}`, v]) : [[key, value]])));
  const featuresOf = formats.map(f => flatten(f.features));
  const featureRows = formats.map((f, i) => i).filter(i => !formats[i].baseline);
  const featureKeys = [...new Set(featureRows.flatMap(i => Object.keys(featuresOf[i])))]
    .filter(k => k !== 'family' && k !== 'sources');
  const featureLabel = key => key.replace('.', ': ').replace(/_/g, ' ');

  function filtersView() {
    const valuesOf = key => featureRows.map(i => featuresOf[i][key]).filter(v => v !== undefined && v !== null);
    const filters = {};
    const controls = featureKeys.map(key => {
      const values = valuesOf(key);
      const distinct = [...new Set(values.map(String))].sort();
      let input;
      if (values.every(v => typeof v === 'boolean')) {
        input = el('select', {}, el('option', { value: '' }, 'any'), el('option', { value: 'true' }, 'yes'), el('option', { value: 'false' }, 'no'));
        filters[key] = v => input.value === '' || String(v) === input.value;
      } else if (distinct.length <= 6) {
        input = el('select', {}, el('option', { value: '' }, 'any'), distinct.map(v => el('option', { value: v }, v)));
        filters[key] = v => input.value === '' || String(v) === input.value;
      } else {
        input = el('input', { type: 'search', placeholder: 'contains…' });
        filters[key] = v => input.value === '' || String(v ?? '').toLowerCase().includes(input.value.toLowerCase());
      }
      input.dataset.feature = key;
      input.addEventListener('input', apply);
      return el('label', {}, featureLabel(key), input);
    });
    // A library labelled unmaintained is a fact of its row, not of its family
    // (whose other libraries may be kept), so it is a filter of its own, not a
    // feature-matrix column; the evidence for each such row is listed under it.
    const unmaintained = featureRows.filter(i => formats[i].unmaintained);
    const maintenance = el('select', { id: 'filter-maintained' }, el('option', { value: '' }, 'any'),
      el('option', { value: 'maintained' }, `maintained only (hides ${unmaintained.length})`));
    maintenance.addEventListener('input', apply);
    const kept = i => maintenance.value === '' || !formats[i].unmaintained;
    const evidence = el('p', { class: 'note', id: 'unmaintained-rows' }, unmaintained.length
      ? `Labelled unmaintained: ${unmaintained.map(i => `${name(formats[i])} (${formats[i].library}): ${formats[i].unmaintained}`).join('; ')}`
      : 'No library here is labelled unmaintained.');
    const count = el('p', { class: 'note', id: 'filter-count' });
    function apply() {
      shown = formats.map((f, i) => f.baseline || (kept(i) && featureKeys.every(k => filters[k](featuresOf[i][k]))));
      count.textContent = `${featureRows.filter(i => shown[i]).length} of ${featureRows.length} formats match; every chart and table below shows only these.`;
      if (Object.keys(charts).length) drawAll();
    }
    apply();
    return section('narrow', 'Narrow the field',
      el('p', { class: 'note' }, 'Filter on the feature matrix (shootout formats; the whole matrix is at the foot of the page), as a requirements list would.'),
      el('div', { class: 'filters' }, el('label', {}, 'library maintained', maintenance), controls), evidence, count);
  }

  function featuresView() {
    return section('features', 'Feature matrix',
      el('p', { class: 'note' }, 'Facts about each format family, as shootout formats prints them; families of the formats the filters show. ? = no row for this family yet.'),
      el('div', { class: 'scroll' }, el('table', { id: 'features-table' })));
  }

  function drawFeatures() {
    const families = new Map();
    for (const i of featureRows.filter(i => shown[i])) {
      const f = formats[i];
      if (!families.has(f.family)) families.set(f.family, { features: featuresOf[i], names: [] });
      families.get(f.family).names.push(name(f));
    }
    const cell = v => (v === undefined || v === null ? '?' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));
    document.getElementById('features-table').replaceChildren(
      el('thead', {}, el('tr', {}, el('th', {}, 'family'), el('th', {}, 'formats here'), featureKeys.map(k => el('th', {}, featureLabel(k))))),
      el('tbody', {}, [...families].map(([family, { features, names }]) =>
        el('tr', {}, el('td', {}, family), el('td', {}, names.join(', ')), featureKeys.map(k => el('td', {}, cell((features || {})[k])))))));
  }

  // Matrices attached with `report --attach`, one section each, drawn by their schema.
  const STATUS_CLASS = { ok: 'ok', mismatch: 'bad', error: 'bad', 'n/a': 'na', silent: 'bad', panic: 'bad' };

  // A matrix's cells, each one with a detail numbered and linked to that detail
  // in the list under the matrix; the list's items are `${id}-1`, `${id}-2`, ….
  function notes(id) {
    const details = [];
    return {
      cell(status, detail) {
        const attributes = { class: `status ${STATUS_CLASS[status] || ''}` };
        if (!detail || status === 'ok') return el('td', attributes, status);
        details.push(detail);
        const n = details.length;
        return el('td', { ...attributes, title: detail }, el('a', { href: `#${id}-${n}` }, `${status} [${n}]`));
      },
      list: () => el('ol', { class: 'notes' }, details.map((detail, i) => el('li', { id: `${id}-${i + 1}` }, detail))),
    };
  }

  function interopView(matrix) {
    const tried = matrix.wires.filter(w => w.cells.length);
    const count = (w, s) => w.cells.filter(c => c.status === s).length;
    const summary = el('table', { class: 'matrix-summary' },
      el('thead', {}, el('tr', {}, ['wire format', 'ok', 'mismatch', 'error', 'n/a', 'same bytes across languages'].map(h => el('th', {}, h)))),
      el('tbody', {}, tried.map(w => el('tr', {},
        el('td', {}, el('a', { href: `#interop-${w.wire}` }, w.wire)),
        ['ok', 'mismatch', 'error', 'n/a'].map(s => el('td', { class: 'num' }, count(w, s))),
        el('td', {}, w.bytes.length ? `${w.bytes.filter(b => b.identical).length} of ${w.bytes.length} pairs` : '–')))));
    const wires = tried.map(w => {
      const wireNotes = notes(`interop-${w.wire}-note`);
      const grid = el('table', { class: 'matrix' },
        el('thead', {}, el('tr', {}, el('th', {}, 'producer \\ consumer'), w.consumers.map(c => el('th', {}, c)))),
        el('tbody', {}, w.producers.map(p => {
          const id = `${p.language}/${p.format}`;
          return el('tr', {}, el('th', {}, id), w.consumers.map(c => {
            const cell = w.cells.find(x => x.producer === id && x.consumer === c);
            return cell ? wireNotes.cell(cell.status, cell.detail) : el('td', {}, '');
          }));
        })));
      return el('div', { id: `interop-${w.wire}`, class: 'wire' }, el('h3', {}, w.wire), el('div', { class: 'scroll' }, grid),
        wireNotes.list(),
        el('ul', { class: 'notes' },
          w.bytes.map(b => el('li', {}, b.identical ? `bytes: ${b.a} and ${b.b} write identical records` : `bytes: ${b.a} and ${b.b} differ first at ${b.first_difference}`)),
          w.absent.map(a => el('li', {}, `n/a ${a.language}: ${a.reason}`))));
    });
    const untried = matrix.wires.filter(w => !w.cells.length).map(w => w.wire);
    return section('interop', 'Interop: one language writes, another reads',
      el('p', { class: 'note' }, `Workload ${matrix.workload}, ${matrix.records} records (${matrix.source}); languages ${matrix.languages.join(', ')}. `
        + 'Each stream a producer (row) wrote is decoded by each consumer (column) and checked against the reference aggregate.'),
      summary,
      untried.length ? el('p', { class: 'note' }, `No codec in the languages chosen: ${untried.join(', ')}.`) : null,
      wires);
  }

  function evolutionView(matrix) {
    const short = { 'add-field': 'add', 'remove-field': 'remove', 'rename-field': 'rename', 'widen-int': 'widen', 'reorder-fields': 'reorder' };
    const arrow = { 'old-to-new': 'old→new', 'new-to-old': 'new→old' };
    const findings = notes('evolution-finding');
    const value = v => (v === null ? 'absent' : JSON.stringify(v));
    const detail = c => (c.outcome === 'silent'
      ? `record ${c.record}: ${c.field} should be ${value(c.expected)}, read ${value(c.got)}`
      : c.message || null);
    const records = r => `${[['silent', r.silent], ['panic', r.panic], ['error', r.error], ['ok', r.ok]]
      .filter(([kind, n]) => n || kind === 'ok').map(([kind, n]) => `${n} ${kind}`).join(', ')} of ${r.ok + r.error + r.silent + r.panic} records`;
    const grid = el('table', { class: 'matrix' },
      el('thead', {},
        el('tr', {}, el('th', {}, 'format'), matrix.changes.map(c => el('th', { colspan: matrix.directions.length, title: c.description }, short[c.name] || c.name))),
        el('tr', {}, el('th', {}, ''), matrix.changes.map(() => matrix.directions.map(d => el('th', { title: d.description }, arrow[d.name] || d.name))))),
      el('tbody', {}, matrix.formats.map(f => el('tr', {}, el('th', { title: f.rules }, f.name),
        f.cells.map(c => findings.cell(c.outcome, detail(c)
          && `${f.name}, ${short[c.change] || c.change} ${arrow[c.direction] || c.direction} (${records(c.records)}): ${detail(c)}`))))));
    return section('evolution', 'Schema evolution: old and new programs reading each other',
      el('p', { class: 'note' }, `${matrix.records} user records, each written by one version of the record and read by the other. `
        + matrix.changes.map(c => `${short[c.name] || c.name}: ${c.description}`).join('; ') + '.'),
      el('p', { class: 'note' }, 'ok: read back as written (a field the data lacked as absent or its default); error: refused cleanly; silent: read into wrong values without an error, the dangerous one; panic: the library panicked.'),
      el('div', { class: 'scroll' }, grid),
      findings.list(),
      el('details', {}, el('summary', {}, 'Each format\'s evolution rules, as its v2s follow them'),
        el('ul', { class: 'notes' }, matrix.formats.map(f => el('li', {}, el('b', {}, f.name), `: ${f.rules}`)))));
  }

  function robustnessView(r) {
    const classes = ['rejected', 'same', 'silent', 'panic', 'hang', 'alloc-bomb', 'crash'];
    const bugs = ['panic', 'hang', 'alloc-bomb', 'crash'];
    const percent = x => `${(100 * x).toFixed(1)} %`;
    const rows = r.formats.map(f => {
      if (f.not_tested) return el('tr', {}, el('th', {}, f.name), el('td', { colspan: classes.length + 2, class: 'na' }, `not tested: ${f.not_tested}`));
      const v = f.validation;
      return el('tr', {}, el('th', {}, f.name), el('td', { class: 'num' }, f.cases),
        classes.map(c => el('td', { class: `num status ${bugs.includes(c) && f.counts[c] ? 'bad' : ''}` }, f.counts[c] ? `${f.counts[c]} (${percent(f.rates[c])})` : '0')),
        el('td', {}, v ? `${number(v.validated_ns_per_record)} vs ${number(v.unchecked_ns_per_record)} ns (${v.unchecked_format}), ×${number(v.ratio, 2)}` : ''));
    });
    const found = r.formats.flatMap(f => (f.reproducers || []).filter(x => bugs.includes(x.class)).map(x =>
      el('li', {}, `${f.name}: ${x.class}, case ${x.case} (${x.kind}: ${x.description}): ${x.detail}; reproducer ${x.file}`)));
    return section('robustness', 'Robustness: hostile bytes',
      el('p', { class: 'note' }, `Workload ${r.workload} (${r.source}): ${r.cases_per_format} cases per format derived from ${r.sample_records} encoded records (seed ${r.seed}), `
        + `each decoded alone in a worker with a ${r.time_limit_ms} ms bound and a ${Math.round(r.alloc_cap_bytes / 1048576)} MiB allocation cap. `
        + 'rejected: a clean error; same: accepted with the original values; silent: accepted with other values (no format here has a checksum); panic, hang, alloc-bomb, crash: decoder bugs.'),
      el('div', { class: 'scroll' }, el('table', { class: 'matrix' },
        el('thead', {}, el('tr', {}, el('th', {}, 'format'), el('th', {}, 'cases'), classes.map(c => el('th', {}, c)), el('th', {}, 'validated vs unchecked decode'))),
        el('tbody', {}, rows))),
      found.length ? el('ul', { class: 'notes' }, found) : el('p', { class: 'note' }, 'No decoder panicked, hung, crashed or allocated past the cap.'),
      r.reproducers ? el('p', { class: 'note' }, `Reproducers, the first case of each finding class per format, in ${r.reproducers}: shootout robustness --replay FILE runs one again.`) : null);
  }

  // A marker per verdict, so none is told by its colour alone.
  const VERDICT_MARKS = { reproduced: '✓', reversed: '✗', 'not-reproduced': '≠', 'not-decided': '?' };
  // One section per study, several studies attached or not.
  const studySection = result => `study-${result.study}`;

  // A study's result (`shootout study NAME --export-json`), as the terminal
  // prints it: each published table with the study's figure, ours and the
  // ratio; our own tables and variants, labelled; the conclusions checked;
  // the open questions answered; the departures.
  function studyView(result) {
    const published = result.published;
    const rowOf = (rows, label) => rows.find(r => r.label === label);
    // As the terminal: a figure with its error (±), text as written, — for none.
    const cellOf = (row, column, shown) => {
      if (!row) return undefined;
      const value = row.values[column.key];
      if (typeof value === 'string') return value;
      if (typeof value !== 'number') return undefined;
      const error = column.error ? row.values[column.error] : undefined;
      return typeof error === 'number' ? `${shown(value)} ± ${shown(error)}` : shown(value);
    };
    // The study's figures with the document's own decimals; ours to three figures.
    const theirsShown = column => v => (typeof column.decimals === 'number' ? v.toFixed(column.decimals) : number(v));
    // As the terminal: two decimals, three figures below a tenth (never ×0.00).
    const ratioShown = r => (Math.abs(r) < 0.1 && r !== 0 ? `×${number(r)}` : `×${r.toFixed(2)}`);
    const withUnit = c => (c.unit ? `${c.title} (${c.unit})` : c.title);
    const grid = (head, rows) => el('div', { class: 'scroll' }, el('table', { class: 'study' }, el('thead', {}, head), el('tbody', {}, rows)));
    const oursMark = () => el('span', { class: 'ours-mark' }, 'ours');
    // Our keys a published table lacks, titled where our table titles them.
    const columnsOfOurs = (table, theirs) => {
      const known = key => theirs && theirs.columns.some(c => c.key === key || c.error === key);
      const keys = [...new Set(table.rows.flatMap(r => Object.keys(r.values)))].filter(key => !known(key));
      return keys.map(key => (table.columns || []).find(c => c.key === key) || { key, title: key, unit: '' });
    };

    // A published table: per column, the study's figure, ours and ours/study; then our own columns.
    function sideBySide(theirs, ours) {
      const oursRows = ours ? ours.rows : [];
      const extra = ours ? columnsOfOurs(ours, theirs) : [];
      const labels = [...theirs.rows.map(r => r.label),
        ...oursRows.map(r => r.label).filter(label => !theirs.rows.some(r => r.label === label))];
      const cells = (label, column) => {
        const studyRow = rowOf(theirs.rows, label);
        const oursRow = rowOf(oursRows, label);
        const study = cellOf(studyRow, column, theirsShown(column));
        const measured = cellOf(oursRow, column, number);
        const ratio = studyRow && oursRow ? oursRow.values[column.key] / studyRow.values[column.key] : NaN;
        return [el('td', { class: 'num' }, study === undefined ? '—' : study),
          el('td', { class: 'num ours' }, ours ? (measured === undefined ? '—' : measured) : 'not measured'),
          el('td', { class: 'num' }, !column.incomparable && Number.isFinite(ratio) ? ratioShown(ratio) : '—')];
      };
      const notes = theirs.columns.filter(c => c.incomparable).map(c => el('p', { class: 'note' }, `${withUnit(c)}: no ratio — ${c.incomparable}`));
      return el('div', { class: 'study-table' },
        el('h4', {}, `${theirs.title}: the study's figure, ours, ours/study`),
        el('p', { class: 'note' }, `Published in ${theirs.source}.`),
        grid([el('tr', {}, el('th', { rowspan: 2 }, ''), theirs.columns.map(c => el('th', { colspan: 3 }, withUnit(c))),
          extra.map(c => el('th', { rowspan: 2 }, oursMark(), ' ', withUnit(c)))),
          el('tr', {}, theirs.columns.map(() => [el('th', {}, 'study'), el('th', {}, 'ours'), el('th', {}, 'ours/study')]))],
        labels.map(label => el('tr', {}, el('th', {}, label), theirs.columns.map(c => cells(label, c)),
          extra.map(c => { const v = cellOf(rowOf(oursRows, label), c, number); return el('td', { class: 'num ours' }, v === undefined ? '—' : v); })))),
        notes);
    }

    // A table the study did not publish, or one of our own variants': ours alone,
    // in the published table's columns where there is one, then our own.
    function oursAlone(table, theirs) {
      const columns = [...(theirs ? theirs.columns : []), ...columnsOfOurs(table, theirs)];
      return el('div', { class: 'study-table' },
        el('h4', {}, oursMark(), ' ', table.title || (theirs && theirs.title) || table.id),
        grid(el('tr', {}, el('th', {}, ''), columns.map(c => el('th', {}, withUnit(c)))),
          table.rows.map(row => el('tr', {}, el('th', {}, row.label), columns.map(c => { const v = cellOf(row, c, number); return el('td', { class: 'num' }, v === undefined ? '—' : v); })))));
    }

    const publishedTable = tableId => published.tables.find(t => t.id === tableId);
    const variants = result.figures.variants.map(variant => {
      const asStudied = variant.id === 'study';
      return el('div', { class: 'variant' },
        el('h3', {}, asStudied ? 'Rerun as the study did' : [oursMark(), ` variant: ${variant.id}`]),
        el('p', { class: 'note' }, variant.title),
        variant.tables.map(table => (asStudied && publishedTable(table.id) ? sideBySide(publishedTable(table.id), table) : oursAlone(table, publishedTable(table.id)))));
    });
    const rerun = result.figures.variants.find(v => v.id === 'study');
    const unmeasured = published.tables.filter(t => !(rerun && rerun.tables.some(x => x.id === t.id)));
    const source = (list, itemId) => { const item = list.find(x => x.id === itemId); return item ? el('div', { class: 'note' }, item.source) : null; };
    const verdict = v => el('span', { class: `verdict ${Object.hasOwn(VERDICT_MARKS, v) ? v : ''}` }, `${VERDICT_MARKS[v] || '•'} ${String(v).replace('-', ' ')}`);
    const unanswered = published.open_questions.filter(q => !result.answers.some(a => a.id === q.id));
    return section(studySection(result), `Study ${result.study}: ${published.title}`,
      el('p', { class: 'note' }, `The document: ../shared/studies/${published.document}; its published figures: spec/studies/${result.study}.json; `
        + `in ${published.language}. Measured by `, el('code', {}, result.command.join(' '))),
      el('p', {}, el('b', {}, 'The study\'s method: '), published.method),
      el('p', {}, el('b', {}, 'The study\'s machine: '), published.machine),
      variants,
      unmeasured.length ? el('div', { class: 'variant' }, el('h3', {}, 'Published, not measured'), unmeasured.map(t => sideBySide(t, null))) : null,
      el('h3', {}, 'The study\'s conclusions and claims, checked'),
      grid(el('tr', {}, ['verdict', 'the study\'s conclusion', 'the figures that decide it'].map(h => el('th', {}, h))),
        result.checks.map(c => el('tr', {}, el('td', {}, verdict(c.verdict)), el('td', {}, c.claim, source(published.conclusions, c.id)), el('td', {}, c.evidence)))),
      result.verdicts ? el('p', { class: 'note' }, result.verdicts) : null,
      result.answers.length || unanswered.length ? [el('h3', {}, 'The study\'s open questions'),
        el('dl', { class: 'answers' },
          result.answers.map(a => [el('dt', {}, a.question, source(published.open_questions, a.id)), el('dd', {}, a.answer)]),
          unanswered.map(q => [el('dt', {}, q.question, source(published.open_questions, q.id)), el('dd', {}, 'Not answered: our figures do not decide it.')]))] : null,
      el('h3', {}, 'Departures from the study'),
      el('ul', { class: 'departures' }, result.figures.departures.map(d => el('li', {}, d))));
  }

  // `shootout replay`: latency against offered rate, the percentile curves at
  // each speed, and every run's figures. Each chart shows one transport; the
  // picker's series (language · format) are shared by both charts.
  function replayView(replay) {
    const settings = replay.settings;
    const several = new Set(replay.rows.map(r => r.language)).size > 1;
    const seriesName = r => (several ? `${r.language} · ${r.format}` : r.format);
    const series = [...new Set(replay.rows.map(r => `${r.language}\u0000${r.format}`))]
      .map(key => { const [language, format] = key.split('\u0000'); return { language, format }; });
    const speedName = s => (s === 'max' ? 'max' : `${s}×`);
    const finite = settings.speeds.filter(s => s !== 'max').sort((a, b) => a - b);
    const QUANTILE_NAMES = { 0.5: 'p50', 0.9: 'p90', 0.99: 'p99', 0.999: 'p99.9', 0.9999: 'p99.99' };
    const state = {
      transport: settings.transports[0],
      quantile: 0.999,
      speed: finite.length ? finite[finite.length - 1] : settings.speeds[0],
      picked: null,
    };
    const rowOf = (s, transport, speed) => replay.rows.find(r => r.language === s.language && r.format === s.format
      && r.transport === transport && r.speed === speed && !r.error);
    const us = ns => ns / 1000;
    const micro = ns => `${ns < 1000 ? number(ns) + ' ns' : number(us(ns)) + ' µs'}`;
    const rate = v => (v === null || v === undefined ? '–' : `${number(v)}/s`);
    const percentileOf = (row, q) => row.percentiles.find(p => p.quantile === q);

    // Eight series, or three of each language, lowest p99.9 at the chosen speed.
    function best() {
      const tail = s => { const r = rowOf(s, state.transport, state.speed); return r ? percentileOf(r, 0.999).ns : Infinity; };
      const order = series.map((s, i) => i).sort((a, b) => tail(series[a]) - tail(series[b]));
      if (!several) return new Set(order.slice(0, 8));
      return new Set([...new Set(series.map(s => s.language))].flatMap(l => order.filter(i => series[i].language === l).slice(0, 3)));
    }

    const buttons = (values, key, label, redraw) => values.map(v => el('button', {
      'data-replay': key, 'data-value': String(v),
      onclick: () => { state[key] = v; redraw(); },
    }, label(v)));
    const drawBoth = () => { drawRate(); drawPercentiles(); };

    function mark() {
      document.querySelectorAll('#replay button[data-replay]').forEach(b => b.classList.toggle('on', b.dataset.value === String(state[b.dataset.replay])));
    }

    function drawRate() {
      mark();
      const datasets = series.map((s, i) => ({
        label: seriesName(s),
        data: finite.map(speed => rowOf(s, state.transport, speed))
          .filter(r => r && r.offered_per_second)
          .map(r => { const p = percentileOf(r, state.quantile); return { x: r.offered_per_second, y: Math.max(us(p.ns), 0.001), few: p.few, speed: r.speed }; }),
        borderColor: formatColor(i), backgroundColor: formatColor(i),
        hidden: !state.picked.has(i), pointRadius: 3, borderWidth: 1.6,
      }));
      draw('replay-rate', {
        type: 'line',
        data: { datasets },
        options: {
          interaction: { mode: 'nearest', intersect: false },
          scales: {
            x: { type: 'logarithmic', title: { display: true, text: 'offered rate (records/s)' }, ticks: logTicks },
            y: { type: 'logarithmic', title: { display: true, text: `${QUANTILE_NAMES[state.quantile]} (µs)` }, ticks: logTicks },
          },
          plugins: {
            legend: { display: false },
            tooltip: { callbacks: { label: c => { const p = c.raw; return `${c.dataset.label} at ${speedName(p.speed)}: ${p.few ? '~' : ''}${number(p.y)} µs`; } } },
          },
        },
      }, datasets.reduce((n, d) => n + d.data.length, 0));
    }

    function drawPercentiles() {
      mark();
      const datasets = series.map((s, i) => {
        const r = rowOf(s, state.transport, state.speed);
        return {
          label: seriesName(s),
          data: r ? r.curve.map(([x, ns]) => ({ x, y: Math.max(us(ns), 0.001) })) : [],
          borderColor: formatColor(i), backgroundColor: formatColor(i),
          hidden: !state.picked.has(i), pointRadius: 0, borderWidth: 1.6,
        };
      });
      drawPercentileCurves('replay-percentiles', datasets, 'µs from scheduled release to decoded', 'µs');
    }

    function drawPicker() {
      document.getElementById('replay-picker').replaceChildren(...series.map((s, i) => {
        const box = el('input', { type: 'checkbox' });
        box.checked = state.picked.has(i);
        box.addEventListener('change', () => {
          if (box.checked) state.picked.add(i); else state.picked.delete(i);
          for (const id of ['replay-rate', 'replay-percentiles']) { charts[id].setDatasetVisibility(i, box.checked); charts[id].update(); }
        });
        return el('label', {}, box, el('span', { class: 'swatch', style: `background:${formatColor(i)}` }), seriesName(s));
      }));
    }

    function pick(which) {
      state.picked = which === 'all' ? new Set(series.map((s, i) => i)) : which === 'none' ? new Set() : best();
      drawPicker();
      drawBoth();
    }

    // As the terminal shows them: 0 for none at all, each thread's (or the process's) figure, who in the title.
    const perRecord = a => (a.count === null ? (a.bytes === null ? '–' : `${number(a.bytes)} B`) : a.count === 0 ? '0' : a.count.toFixed(2));
    const allocations = r => el('td', { class: 'num', title: r.allocations.map(a => `${a.who}: ${perRecord(a)}`).join(', ') },
      r.allocations.length ? r.allocations.map(perRecord).join(' / ') : '–');
    const runs = el('table', {},
      el('thead', {}, el('tr', {}, ['language', 'format', 'transport', 'speed', 'records', ...Object.values(QUANTILE_NAMES), 'max', 'open p99.9', 'offered', 'achieved', 'backlog', 'drops', 'allocs/rec', 'gc'].map(h => el('th', {}, h)))),
      el('tbody', {}, replay.rows.map(r => el('tr', {},
        el('td', {}, r.language), el('td', {}, r.format), el('td', {}, r.transport), el('td', {}, speedName(r.speed)),
        r.error ? el('td', { colspan: 14, class: 'failed' }, `failed: ${r.error}`) : [
          el('td', { class: 'num' }, r.received.toLocaleString('en')),
          r.percentiles.map(p => el('td', { class: 'num' }, `${p.few ? '~' : ''}${micro(p.ns)}`)),
          el('td', { class: 'num' }, micro(r.max_ns)),
          el('td', { class: 'num' }, r.busiest ? micro(r.busiest.p99_9_ns) : '–'),
          el('td', { class: 'num' }, rate(r.offered_per_second)),
          el('td', { class: 'num' }, rate(r.achieved_per_second)),
          el('td', { class: 'num' }, r.max_backlog), el('td', { class: 'num' }, r.drops),
          allocations(r),
          el('td', {}, r.gc ? `${r.gc.collections} (max ${micro(r.gc.pause_max_ns)})` : '–'),
        ]))));
    const sustainable = el('table', { class: 'matrix' },
      el('thead', {}, el('tr', {}, el('th', {}, 'language'), el('th', {}, 'format'), settings.transports.map(t => el('th', {}, t)))),
      el('tbody', {}, series.map(s => el('tr', {}, el('td', {}, s.language), el('td', {}, s.format), settings.transports.map(t => {
        const found = replay.sustainable.find(x => x.language === s.language && x.format === s.format && x.transport === t);
        return el('td', { class: 'num' }, !found ? '–' : found.speed === null ? 'none' : `${found.speed}×`);
      })))));
    const c = replay.capture;
    const load = replay.load_average ? `load average ${replay.load_average.map(v => v.toFixed(2)).join(', ')} before the first run` : 'load average unknown';
    const node = section('replay', 'Replay: latency at the feed\'s own pace',
      el('p', { class: 'note' }, `${replay.input.name} (${replay.input.bytes.toLocaleString('en')} bytes, sha256 ${replay.input.sha256.slice(0, 16)}…): `
        + `${c.records.toLocaleString('en')} records, ${c.first_send_time} to ${c.last_send_time}; busiest second ${c.busiest_second} with ${c.busiest_second_records} records; `
        + `${c.replayed_records.toLocaleString('en')} records replayed around it. Each record is released at its send time scaled by the speed, `
        + 'encoded by one thread, handed over the transport and decoded by another; its latency runs from its scheduled release to the end of its decode, '
        + `so waiting behind earlier records counts. ${load}.`),
      el('div', { class: 'controls' }, 'transport:', buttons(settings.transports, 'transport', t => t, drawBoth),
        el('button', { onclick: () => pick('best') }, several ? 'lowest p99.9: 3 of each language' : 'lowest p99.9: 8'),
        el('button', { onclick: () => pick('all') }, 'all'),
        el('button', { onclick: () => pick('none') }, 'none')),
      el('h3', {}, 'Latency against offered rate'),
      el('p', { class: 'note' }, `One point per finite speed (${finite.map(speedName).join(', ') || 'none asked'}); max has no offered rate: its achieved rate is in the table. ~: fewer than ten records beyond the percentile.`),
      el('div', { class: 'controls' }, 'percentile:', buttons(Object.keys(QUANTILE_NAMES).map(Number), 'quantile', q => QUANTILE_NAMES[q], drawRate)),
      el('div', { class: 'row' },
        el('div', { style: 'flex: 3 1 640px' }, chartBox('replay-rate', 420), el('h3', {}, 'Percentile curves'),
          el('div', { class: 'controls' }, 'speed:', buttons(settings.speeds, 'speed', speedName, drawPercentiles)),
          chartBox('replay-percentiles', 460)),
        el('div', { id: 'replay-picker', class: 'picker', style: 'flex: 1 1 240px' })),
      el('h3', {}, `Sustainable rate: the fastest finite speed with nothing dropped, p99.9 within ${micro(settings.budget_ns)}, and the offered rate kept up with`),
      sustainable,
      el('h3', {}, 'Every run'),
      el('p', { class: 'note' }, 'open: the busiest second\'s records. allocs/rec: steady state (the run\'s second half), producer / consumer, or for the process (hover for which). gc: collections during the run and the longest pause.'),
      el('div', { class: 'scroll' }, runs),
      replay.not_run.length ? el('ul', { class: 'withheld' }, replay.not_run.map(n => el('li', {}, `not run: ${n.language} ${n.format}: ${n.reason}`))) : null,
      el('details', {}, el('summary', {}, 'How each language replayed'),
        el('ul', { class: 'notes' }, replay.languages.map(l => el('li', {}, `${l.language}: clock ${l.clock}; ${l.pinning}; `
          + Object.entries(l.transports).map(([t, what]) => `${t}: ${what}`).join('; ')
          + `; versions ${Object.entries(l.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`))),
        el('p', { class: 'note' }, `Command: ${replay.command.join(' ')}`)));
    afterAttach.push(() => pick('best'));
    return node;
  }

  // `report` of files from several testbeds: relative costs side by side, then each testbed's own figures.
  function testbedsView(across) {
    const cost = c => (c ? `${number(c.cost.value)}x [${number(c.cost.interval.low)}–${number(c.cost.interval.high)}]${c.rank ? ` #${c.rank}` : ''}` : '–');
    const side = el('table', { class: 'matrix' },
      el('thead', {}, el('tr', {}, ['lang', 'format', 'direction', ...across.testbeds.map(t => t.label)].map(h => el('th', {}, h)))),
      el('tbody', {}, across.rows.map(r => el('tr', {}, el('td', {}, r.language), el('td', {}, r.format), el('td', {}, r.direction),
        r.cells.map(c => el('td', { class: 'num' }, cost(c)))))));
    const own = across.testbeds.map((t, i) => el('div', { id: `testbed-${i}` }, el('h3', {}, `${t.label}: its own figures`),
      el('p', { class: 'note' }, `${t.description}; ${t.files.join(', ')}`),
      el('table', { class: 'matrix' },
        el('thead', {}, el('tr', {}, ['lang', 'format', 'direction', 'ns/op', 'p99 ns', 'bytes/record'].map(h => el('th', {}, h)))),
        el('tbody', {}, across.rows.filter(r => r.cells[i]).map(r => el('tr', {}, el('td', {}, r.language), el('td', {}, r.format), el('td', {}, r.direction),
          el('td', { class: 'num' }, number(r.cells[i].ns_per_op)), el('td', { class: 'num' }, number(r.cells[i].p99_ns)),
          el('td', { class: 'num' }, number(r.cells[i].bytes_per_record))))))));
    return section('testbeds', `Across testbeds: ${across.workload}, ${across.records} records`,
      el('p', { class: 'note' }, 'Relative cost: each format\'s ns/op over its run\'s anchor, the machine\'s speed taken out, anchored again on the formats every testbed measured (their geometric mean is 1); 95% interval in brackets; #rank among those formats on that testbed. ns/op compares only within one testbed, in its own table below.'),
      el('ul', { class: 'notes' }, across.testbeds.map(t => el('li', {}, el('b', {}, t.label), `: ${t.description}`))),
      el('div', { class: 'scroll' }, side),
      el('h3', {}, 'Rank changes'),
      across.rank_changes.length ? el('ul', { class: 'notes', id: 'rank-changes' }, across.rank_changes.map(line => el('li', {}, line)))
        : el('p', { class: 'note', id: 'rank-changes' }, 'No format changes rank between the testbeds.'),
      own);
  }

  // Each attachment's view and the id of the section it draws.
  const ATTACHMENTS = {
    'shootout-interop-matrix/1': { view: interopView, section: () => 'interop' },
    'shootout-evolution/1': { view: evolutionView, section: () => 'evolution' },
    'shootout-robustness/1': { view: robustnessView, section: () => 'robustness' },
    'shootout-study-result/1': { view: studyView, section: studySection },
    'shootout-replay/1': { view: replayView, section: () => 'replay' },
    'shootout-testbeds/1': { view: testbedsView, section: () => 'testbeds' },
  };
  const attachmentViews = () => data.attachments.map(a => {
    const kind = ATTACHMENTS[a.schema];
    if (!kind) { reportError(`no view for an attachment of schema ${a.schema}`); return null; }
    return kind.view(a);
  }).filter(Boolean);

  function throughput() {
    return section('throughput', 'Throughput',
      el('p', { class: 'note' }, 'ns per record (lower is better): median across runs, whiskers its 95% interval over the processes; bars coloured by language.'),
      el('div', { class: 'row' },
        ['encode', 'decode'].map(direction => el('div', {}, el('h3', {}, direction), chartBox(`throughput-${direction}`, 120)))));
  }

  function drawThroughput(direction) {
    const order = formats.map((f, i) => i).filter(i => shown[i])
      .sort((a, b) => formats[a].language.localeCompare(formats[b].language) || formats[a][direction].ns_per_op - formats[b][direction].ns_per_op);
    document.getElementById(`chart-throughput-${direction}`).parentNode.style.height = `${60 + 17 * order.length}px`;
    draw(`throughput-${direction}`, {
      type: 'bar',
      data: {
        labels: order.map(i => name(formats[i])),
        datasets: [{
          label: 'ns/op',
          data: order.map(i => formats[i][direction].ns_per_op),
          intervals: order.map(i => formats[i][direction].ci),
          backgroundColor: order.map(i => languageColor(formats[i].language)),
        }],
      },
      options: {
        indexAxis: 'y',
        scales: { x: { title: { display: true, text: 'ns/op' }, beginAtZero: true, suggestedMax: Math.max(...order.map(i => formats[i][direction].ci.high)) } },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: c => { const f = formats[order[c.dataIndex]][direction]; return `${number(f.ns_per_op)} ns/op (95% CI ${number(f.ci.low)}–${number(f.ci.high)}), ×${number(f.relative)} the fastest`; } } },
        },
      },
      plugins: [whiskers],
    }, order.length);
  }

  let latencyDirection = 'decode';
  let latencySelection = null;

  function latencyView() {
    const buttons = ['encode', 'decode'].map(d => el('button', { 'data-direction': d, onclick: () => { latencyDirection = d; drawLatency(); } }, d));
    return section('latency', 'Latency percentiles',
      el('p', { class: 'note' }, 'One timed sample per record (latency pass, the clock\'s own cost subtracted), all measured runs merged: percentile on a log-odds axis, ns on a log axis; each curve ends at its maximum. Tick the formats to compare.'),
      el('div', { class: 'controls' }, 'direction:', buttons,
        el('button', { onclick: () => selectLatency('fastest') }, data.several_languages ? 'fastest 3 of each language' : 'fastest 8'),
        el('button', { onclick: () => selectLatency('all') }, 'all'),
        el('button', { onclick: () => selectLatency('none') }, 'none')),
      el('div', { class: 'row' },
        el('div', { style: 'flex: 3 1 640px' }, chartBox('latency', 560)),
        el('div', { id: 'latency-picker', class: 'picker', style: 'flex: 1 1 240px' })));
  }

  // The fastest at p50: 8, or 3 of each language when there are several.
  function pickLatency(which) {
    const order = measured().sort((a, b) => formats[a][latencyDirection].p50_ns - formats[b][latencyDirection].p50_ns);
    if (which === 'all') return new Set(order);
    if (which === 'none') return new Set();
    if (!data.several_languages) return new Set(order.slice(0, 8));
    return new Set(languages.flatMap(language => order.filter(i => formats[i].language === language).slice(0, 3)));
  }

  function selectLatency(which) {
    latencySelection = pickLatency(which);
    drawLatency();
  }

  function drawLatency() {
    document.querySelectorAll('#latency button[data-direction]').forEach(b => b.classList.toggle('on', b.dataset.direction === latencyDirection));
    const order = measured();
    if (latencySelection === null) latencySelection = pickLatency('fastest');
    const datasets = order.map(i => ({
      label: name(formats[i]),
      data: formats[i][latencyDirection].latency.points.map(([x, y]) => ({ x, y: Math.max(y, 1) })),
      borderColor: formatColor(i), backgroundColor: formatColor(i),
      hidden: !latencySelection.has(i), pointRadius: 0, borderWidth: 1.6,
    }));
    drawPercentileCurves('latency', datasets, 'ns', 'ns');
    const picker = document.getElementById('latency-picker');
    picker.replaceChildren(...languages.map(language => el('div', {},
      data.several_languages ? el('h3', {}, language) : null,
      order.map((i, d) => [i, d]).filter(([i]) => formats[i].language === language).map(([i, d]) => {
        const box = el('input', { type: 'checkbox' });
        box.checked = latencySelection.has(i);
        box.addEventListener('change', () => {
          if (box.checked) latencySelection.add(i); else latencySelection.delete(i);
          charts.latency.setDatasetVisibility(d, box.checked);
          charts.latency.update();
        });
        const summary = formats[i][latencyDirection].latency.from_histograms ? '' : ' (summary percentiles only)';
        return el('label', {}, box, el('span', { class: 'swatch', style: `background:${formatColor(i)}` }), `${formats[i].name}${summary}`);
      }))));
  }

  function sizeView() {
    return section('size', 'Size',
      el('p', { class: 'note' }, 'Bytes per record: the encoded stream, and the whole stream compressed with zstd (n/a: the runner has no zstd).'),
      chartBox('size', 120));
  }

  function drawSize() {
    const order = measured().sort((a, b) => formats[a].bytes_per_record - formats[b].bytes_per_record);
    document.getElementById('chart-size').parentNode.style.height = `${70 + 24 * order.length}px`;
    draw('size', {
      type: 'bar',
      data: {
        labels: order.map(i => name(formats[i])),
        datasets: [
          { label: 'encoded', data: order.map(i => formats[i].bytes_per_record), backgroundColor: '#2563eb' },
          { label: 'zstd', data: order.map(i => formats[i].zstd_bytes_per_record), backgroundColor: '#93c5fd' },
        ],
      },
      options: { indexAxis: 'y', scales: { x: { title: { display: true, text: 'bytes/record' }, beginAtZero: true } } },
    }, order.length);
  }

  let scatterDirection = 'decode';

  function scatterView() {
    const buttons = ['encode', 'decode'].map(d => el('button', { 'data-direction': d, onclick: () => { scatterDirection = d; drawScatter(); } }, d));
    return section('speed-size', 'Speed against size',
      el('p', { class: 'note' }, 'Each format\'s ns/op against its bytes/record (both log scales; lower left is better). The Pareto front — the formats no other format beats on both — is drawn and named; with several languages, each language\'s own front is dashed in its colour. Fronts are computed over every measured format, not only those the filters show.'),
      el('div', { class: 'controls' }, 'direction:', buttons),
      chartBox('speed-size', 560),
      el('p', { id: 'pareto-front' }));
  }

  function drawScatter() {
    document.querySelectorAll('#speed-size button[data-direction]').forEach(b => b.classList.toggle('on', b.dataset.direction === scatterDirection));
    const point = i => ({ x: formats[i][scatterDirection].ns_per_op, y: formats[i].bytes_per_record, name: name(formats[i]) });
    const front = data.pareto[scatterDirection];
    const datasets = languages.map(language => ({
      label: language,
      data: measured().filter(i => formats[i].language === language).map(point),
      backgroundColor: languageColor(language), pointRadius: 4,
    }));
    for (const [language, fronts] of Object.entries(data.pareto_by_language)) {
      datasets.push({
        label: `${language} front`, data: fronts[scatterDirection].map(point), showLine: true,
        borderColor: languageColor(language), backgroundColor: languageColor(language), borderDash: [5, 4], borderWidth: 1, pointRadius: 0,
      });
    }
    datasets.push({
      label: 'Pareto front', data: front.map(point), named: true, showLine: true,
      borderColor: '#111', backgroundColor: '#111', pointRadius: 5, pointStyle: 'rectRot', borderWidth: 1.2,
    });
    draw('speed-size', {
      type: 'scatter',
      data: { datasets },
      options: {
        scales: {
          x: { type: 'logarithmic', title: { display: true, text: `${scatterDirection} ns/op` }, ticks: logTicks },
          y: { type: 'logarithmic', title: { display: true, text: 'bytes/record' }, ticks: logTicks },
        },
        plugins: { tooltip: { callbacks: { label: c => `${c.raw.name}: ${number(c.raw.x)} ns/op, ${number(c.raw.y)} B/record` } } },
      },
      plugins: [pointNames],
    }, datasets.reduce((n, d) => n + d.data.length, 0));
    const describe = indices => indices.map(i => `${name(formats[i])} (${number(formats[i][scatterDirection].ns_per_op)} ns/op, ${number(formats[i].bytes_per_record)} B)`).join(' → ');
    document.getElementById('pareto-front').replaceChildren(
      el('span', { class: 'front' }, `Pareto front (${scatterDirection}): `), describe(front),
      ...Object.entries(data.pareto_by_language).map(([language, fronts]) =>
        el('div', { class: 'note' }, `Within ${language} (dashed): ${describe(fronts[scatterDirection])}`)));
  }

  function allocationsView() {
    return section('allocations', 'Allocations',
      el('p', { class: 'note' }, 'Heap allocations per record, counted in their own pass (not timed). n/a: the runner cannot count allocations (the JVM reports allocated bytes only; see the table below).'),
      chartBox('allocations', 120), el('p', { class: 'note', id: 'allocations-missing' }));
  }

  function drawAllocations() {
    const counted = measured().filter(i => formats[i].encode.allocations_per_op !== null || formats[i].decode.allocations_per_op !== null);
    const order = counted.sort((a, b) => (formats[a].decode.allocations_per_op ?? 0) - (formats[b].decode.allocations_per_op ?? 0));
    document.getElementById('chart-allocations').parentNode.style.height = `${70 + 24 * order.length}px`;
    draw('allocations', {
      type: 'bar',
      data: {
        labels: order.map(i => name(formats[i])),
        datasets: ['encode', 'decode'].map((d, k) => ({
          label: d, data: order.map(i => formats[i][d].allocations_per_op), backgroundColor: k ? '#16a34a' : '#86efac',
        })),
      },
      options: { indexAxis: 'y', scales: { x: { title: { display: true, text: 'allocations/op' }, beginAtZero: true } } },
    }, order.length);
    const missing = measured().filter(i => !counted.includes(i)).map(i => name(formats[i]));
    document.getElementById('allocations-missing').textContent = missing.length ? `n/a: ${missing.join(', ')}` : '';
  }

  function detailsView() {
    return section('details', 'Every figure, and how each format was used',
      el('p', { class: 'note' }, 'Medians across runs. Labels say how the format uses its library (docs/results-schema.md); ≈ = not significantly different from the fastest.'),
      el('div', { class: 'scroll' }, el('table', { id: 'details-table' })));
  }

  function drawDetails() {
    const head = ['format', 'family', 'library', 'direction', 'ns/op', '95% CI', 'relative', 'p50', 'p90', 'p99', 'p99.9', 'max', 'allocs/op', 'B alloc/op', 'bytes/rec', 'zstd B/rec', 'labels', 'notes'];
    const rows = formats.map((f, i) => i).filter(i => shown[i]).flatMap(i => {
      const f = formats[i];
      return ['encode', 'decode'].map((d, k) => {
        const x = f[d];
        const first = k === 0;
        return el('tr', {},
          el('td', {}, first ? name(f) : ''), el('td', {}, first ? f.family : ''), el('td', {}, first ? `${f.library} ${f.library_version}` : ''),
          el('td', {}, d),
          el('td', { class: 'num' }, number(x.ns_per_op)), el('td', { class: 'num' }, `${number(x.ci.low)}–${number(x.ci.high)}`),
          el('td', { class: 'num' }, `${x.indistinguishable_from_fastest ? '≈' : ''}×${number(x.relative)}`),
          ['p50_ns', 'p90_ns', 'p99_ns', 'p999_ns', 'max_ns'].map(p => el('td', { class: 'num' }, latency(f, x[p]))),
          el('td', { class: 'num' }, number(x.allocations_per_op)), el('td', { class: 'num' }, number(x.allocated_bytes_per_op)),
          el('td', { class: 'num' }, first ? number(f.bytes_per_record) : ''), el('td', { class: 'num' }, first ? number(f.zstd_bytes_per_record) : ''),
          el('td', {}, first ? Object.entries(f.labels || {}).map(([k, v]) => `${k}: ${v}`).join(', ') + (f.tags.length ? ` · tags: ${f.tags.join(', ')}` : '') : ''),
          el('td', {}, first ? f.notes : ''));
      });
    });
    document.getElementById('details-table').replaceChildren(el('thead', {}, el('tr', {}, head.map(h => el('th', {}, h)))), el('tbody', {}, rows));
  }

  function drawAll() {
    drawThroughput('encode');
    drawThroughput('decode');
    drawLatency();
    drawSize();
    drawScatter();
    drawAllocations();
    drawDetails();
    drawFeatures();
    document.documentElement.dataset.chartPoints = JSON.stringify(chartPoints);
  }

  const attached = data.attachments.filter(a => ATTACHMENTS[a.schema]).map(a => ATTACHMENTS[a.schema].section(a));
  document.title = hasResults ? `shootout: ${data.workload.name} (${data.workload.records} records)` : `shootout: ${attached.join(', ')}`;
  root.replaceChildren(
    ...(hasResults ? [
      header(),
      el('nav', { class: 'note' }, 'Sections: ', ['narrow', 'throughput', 'latency', 'size', 'speed-size', 'allocations', 'details', 'features', ...attached, 'provenance']
        .map(id => el('a', { href: `#${id}` }, id)).reduce((all, link) => (all.length ? [...all, ' · ', link] : [link]), [])),
      filtersView(), throughput(), latencyView(), sizeView(), scatterView(), allocationsView(), detailsView(), featuresView(), ...attachmentViews(), provenance(),
    ] : [el('header', {}, el('h1', {}, document.title)), ...attachmentViews()]),
    el('p', { class: 'note' }, `Made by ${data.generator}.`),
    el('pre', { id: 'errors' }));
  if (hasResults) drawAll();
  afterAttach.forEach(drawAttachment => drawAttachment());
  if (afterAttach.length) document.documentElement.dataset.chartPoints = JSON.stringify(chartPoints);
  document.documentElement.dataset.rendered = 'yes';
  window.addEventListener('error', () => { document.getElementById('errors').textContent = window.reportErrors.join('\n'); });
})();
