// jrxe view: draws the ladders from the JSON data in #ladder-data, shows a packet's headers on click,
// filters by QP. Plain JS, no libraries, nothing fetched: the page must work from a file, offline.
(function () {
  'use strict';
  var body = document.body;
  window.addEventListener('error', function (e) {
    body.setAttribute('data-error', String(e.message));
  });

  // The ladder drawn: the page's data, or a stretch of a large capture picked from #stretches (parsed when picked).
  var data, packets, FLAGS;             // FLAGS: flag names by bit: retx, nak, rnr, drop, lost, bad
  function use(el) {
    data = JSON.parse(el.textContent);
    packets = data.packets;
    FLAGS = data.flags;
  }
  var stretchList = document.getElementById('stretches');
  // A whole capture's ladder is drawn at once; a large capture's page opens on its analysis and draws a stretch's
  // ladder only when one is picked, so that opening it costs the same whatever the capture's size.
  if (!stretchList) { use(document.getElementById('ladder-data')); }
  var ROW = 24;                         // the least vertical space between two packets, px
  var NOTE_ROW = 16;                    // extra space under a packet that has a note line
  var SLANT = 8;                        // how far an arrow drops from sender to receiver, px
  var TOP = 22;                         // the first packet's row
  var LANE_X = [370, 820];
  var WIDTH = 1090;
  var GAP_ROWS = 4;                     // a gap longer than this many rows is compressed to it

  var FLAG_WORDS = { retx: 'retransmission (PSN sent again)', nak: 'NAK', rnr: 'RNR NAK', drop: 'dropped by the receiver',
    lost: 'lost on the way', bad: 'bad packet' };

  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }

  function fmtTime(ns) {
    if (ns < 1e6) { return (ns / 1e3).toFixed(1) + ' \u00b5s'; }
    if (ns < 1e9) { return (ns / 1e6).toFixed(3) + ' ms'; }
    return (ns / 1e9).toFixed(6) + ' s';
  }

  function hex(n, digits) {
    var s = Number(n).toString(16);
    while (s.length < digits) { s = '0' + s; }
    return '0x' + s;
  }
  // RFC 3168's names of the two ECN bits.
  function ecnName(e) {
    return e + ' (' + ['Not-ECT', 'ECT(1)', 'ECT(0)', 'CE'][e & 3] + ')';
  }

  function flagNames(k) {
    var names = [];
    for (var b = 0; b < FLAGS.length; b++) {
      if (k & (1 << b)) { names.push(FLAGS[b]); }
    }
    return names;
  }

  function kindOf(p) {
    var op = p.op;
    if (op.indexOf('ACKNOWLEDGE') >= 0) { return 'ack'; }
    if (op.indexOf('READ_RESPONSE') >= 0) { return 'resp'; }
    return 'req';
  }

  // Vertical positions: a packet's gap to the previous one is drawn to scale (the connection's median
  // gap takes one row) but never under one row, and a gap longer than GAP_ROWS rows is cut to that
  // height, a dotted line across it saying how long it really was.
  function layout(conn) {
    var idx = conn.packets;
    var gaps = [];
    for (var k = 1; k < idx.length; k++) {
      var d = packets[idx[k]].t - packets[idx[k - 1]].t;
      if (d > 0) { gaps.push(d); }
    }
    gaps.sort(function (a, b) { return a - b; });
    var median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : 1;
    var pxPerNs = ROW / Math.max(median, 1);
    var ys = [];
    var breaks = [];
    var y = TOP;
    for (k = 0; k < idx.length; k++) {
      if (k > 0) {
        var prev = packets[idx[k - 1]];
        var need = ROW + (prev.note ? NOTE_ROW : 0);
        var dt = packets[idx[k]].t - prev.t;
        var px = dt * pxPerNs;
        var cap = Math.max(need, GAP_ROWS * ROW);
        if (px > cap) {
          breaks.push({ y: Math.round(y + cap / 2 + 6), dt: dt });
          y += cap;
        } else {
          y += Math.max(need, px);
        }
      }
      ys.push(Math.round(y));
    }
    return { ys: ys, breaks: breaks, bottom: y + ROW + NOTE_ROW };
  }

  // The lane headers are HTML above the drawing, sticky, so that a long ladder keeps them in view.
  function laneHeads(conn) {
    return '<div class="lane-heads" style="width:' + WIDTH + 'px">' + conn.lanes.map(function (lane, l) {
      return '<div class="lane-head" style="left:' + (LANE_X[l] - 95) + 'px"><b>' + esc(lane.ip) + '</b><br>' + esc(lane.qp) + '</div>';
    }).join('') + '</div>';
  }

  function arrow(out, p, y) {
    var from = LANE_X[p.f];
    var to = LANE_X[1 - p.f];
    var dir = to > from ? 1 : -1;
    var names = flagNames(p.k);
    var undelivered = names.indexOf('drop') >= 0 || names.indexOf('lost') >= 0;
    var endX = undelivered ? from + (to - from) * (names.indexOf('lost') >= 0 ? 0.6 : 0.86) : to - dir * 2;
    var y2 = y + SLANT * (endX - from) / (to - from);
    var cls = ['arrow', kindOf(p)].concat(names).join(' ');
    out.push('<g class="' + cls + '" data-i="' + p.i + '">');
    out.push('<line class="hit" x1="' + from + '" y1="' + y + '" x2="' + endX + '" y2="' + y2 + '"/>');
    out.push('<line class="shaft" x1="' + from + '" y1="' + y + '" x2="' + endX + '" y2="' + y2 + '"/>');
    if (undelivered) {
      out.push('<text class="x" x="' + endX + '" y="' + (y2 + 5) + '" text-anchor="middle">\u2715</text>');
    } else {
      var hx = endX - dir * 9;
      out.push('<polygon class="head" points="' + endX + ',' + y2 + ' ' + hx + ',' + (y2 - 4.5) + ' ' + hx + ',' + (y2 + 4.5) + '"/>');
    }
    // A CNP has no PSN to speak of: its label names the QP it asks to slow down. A CE mark leads the label.
    var label = (names.indexOf('retx') >= 0 ? '\u21bb ' : '') + (p.d.ecn === 3 ? 'CE ' : '') + p.op
        + (p.op === 'CNP' ? '  for qp ' + hex(p.d.dest_qpn, 6) : '  psn ' + p.psn + '  A=' + (p.ack ? 1 : 0));
    out.push('<text class="lbl" x="' + ((from + to) / 2) + '" y="' + (y - 4) + '" text-anchor="middle">' + esc(label) + '</text>');
    if (p.note) {
      var note = p.note.length > 70 ? p.note.substring(0, 67) + '...' : p.note;
      out.push('<text class="why" x="' + ((from + to) / 2) + '" y="' + (y + SLANT + 12) + '" text-anchor="middle">' + esc(note) + '</text>');
    }
    out.push('</g>');
  }

  function bracket(out, m, n, top, bottom) {
    var left = m.lane === 0;
    var bx = LANE_X[m.lane] + (left ? -16 : 16);
    var tick = left ? 7 : -7;
    out.push('<g class="msg ' + (n % 2 ? 'odd' : 'even') + '">');
    out.push('<path d="M' + (bx + tick) + ',' + top + ' H' + bx + ' V' + bottom + ' H' + (bx + tick) + '"/>');
    out.push('<text x="' + (bx + (left ? -6 : 6)) + '" y="' + ((top + bottom) / 2 + 4) + '" text-anchor="' + (left ? 'end' : 'start') + '">'
      + esc(m.label) + '</text></g>');
  }

  function drawConnection(conn, msgsByConn, waitsByConn) {
    var lay = layout(conn);
    var posOf = {};
    conn.packets.forEach(function (i, k) { posOf[i] = k; });
    var out = [];
    var height = Math.ceil(lay.bottom);
    out.push('<svg class="ladder" width="' + WIDTH + '" height="' + height + '" viewBox="0 0 ' + WIDTH + ' ' + height + '">');
    for (var l = 0; l < 2; l++) {
      out.push('<line class="lane-line" x1="' + LANE_X[l] + '" y1="0" x2="' + LANE_X[l] + '" y2="' + height + '"/>');
    }
    lay.breaks.forEach(function (b) {
      out.push('<g class="gap"><line x1="60" y1="' + b.y + '" x2="' + (WIDTH - 20) + '" y2="' + b.y + '"/>'
        + '<text x="' + ((LANE_X[0] + LANE_X[1]) / 2) + '" y="' + (b.y - 4) + '" text-anchor="middle">'
        + esc('\u2026 ' + fmtTime(b.dt) + ' without packets, drawn shorter \u2026') + '</text></g>');
    });
    (waitsByConn[conn.id] || []).forEach(function (w) {
      var top = lay.ys[posOf[w.from]] + SLANT;
      var bottom = w.to >= 0 ? lay.ys[posOf[w.to]] : lay.bottom - ROW;
      var x = LANE_X[w.lane];
      var inward = w.lane === 0 ? 10 : -10;
      // The RNR NAK's own note says the timer; the band is labelled just under it, beside the lane.
      out.push('<g class="wait"><title>' + esc('the requester waits: ' + w.timer) + '</title><rect x="' + (x - 6) + '" y="' + top + '" width="12" height="' + Math.max(bottom - top, 4) + '"/>'
        + '<text x="' + (x + inward) + '" y="' + Math.min(top + 30, bottom - 2) + '" text-anchor="' + (w.lane === 0 ? 'start' : 'end') + '">'
        + 'RNR wait</text></g>');
    });
    (msgsByConn[conn.id] || []).forEach(function (entry) {
      var m = entry.m;
      bracket(out, m, entry.n, lay.ys[posOf[m.first]] - 3, lay.ys[posOf[m.last]] + SLANT + 3);
    });
    conn.packets.forEach(function (i, k) {
      out.push('<text class="time" x="6" y="' + (lay.ys[k] + 4) + '">' + esc(fmtTime(packets[i].t)) + '</text>');
      arrow(out, packets[i], lay.ys[k]);
    });
    out.push('</svg>');
    return out.join('');
  }

  // A connection's ladder as a standalone SVG file, for slides: the drawn SVG with each element's computed style written
  // into its attributes (programs that import SVG read attributes more surely than a style sheet with variables), the
  // lane heads drawn in SVG, a title and a white background.
  var SVG_STYLE = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'font-family', 'font-size',
    'font-weight', 'font-style'];
  var SVG_HEAD = 74;                    // the title's and the lane heads' height above the ladder
  // The SVG namespace is taken from a drawn ladder (an inline <svg> is in it): the page names no URL at all.
  function svgElement(ns, name, attributes, text) {
    var el = document.createElementNS(ns, name);
    Object.keys(attributes).forEach(function (k) { el.setAttribute(k, attributes[k]); });
    if (text !== undefined) { el.textContent = text; }
    return el;
  }
  function standaloneSvg(id) {
    var conn = data.connections[id];
    var live = document.querySelector('#ladders .conn[data-c="' + id + '"] svg.ladder');
    var ns = live.namespaceURI;
    var copy = live.cloneNode(true);
    var from = live.querySelectorAll('*');
    var to = copy.querySelectorAll('*');
    for (var i = 0; i < from.length; i++) {
      var style = getComputedStyle(from[i]);
      SVG_STYLE.forEach(function (name) {
        var v = style.getPropertyValue(name);
        if (v) { to[i].setAttribute(name, v); }
      });
    }
    copy.querySelectorAll('.hit').forEach(function (el) { el.remove(); });
    copy.querySelectorAll('[class]').forEach(function (el) { el.removeAttribute('class'); });
    var width = Number(live.getAttribute('width'));
    var height = Number(live.getAttribute('height')) + SVG_HEAD;
    var svg = svgElement(ns, 'svg', { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height });
    svg.appendChild(svgElement(ns, 'rect', { width: width, height: height, fill: '#ffffff' }));
    svg.appendChild(svgElement(ns, 'text', { x: 10, y: 18, 'font-family': 'DejaVu Sans, sans-serif', 'font-size': 14,
      'font-weight': 'bold', fill: '#1d232b' }, connectionTitle(conn)));
    conn.lanes.forEach(function (lane, l) {
      var x = LANE_X[l];
      svg.appendChild(svgElement(ns, 'rect', { x: x - 95, y: 28, width: 190, height: 40, rx: 4, fill: '#eef2f8',
        stroke: '#3a4350' }));
      svg.appendChild(svgElement(ns, 'text', { x: x, y: 45, 'text-anchor': 'middle', 'font-family': 'DejaVu Sans, sans-serif',
        'font-size': 13, 'font-weight': 'bold', fill: '#1d232b' }, lane.ip));
      svg.appendChild(svgElement(ns, 'text', { x: x, y: 61, 'text-anchor': 'middle', 'font-family': 'DejaVu Sans Mono, monospace',
        'font-size': 12, fill: '#1d232b' }, lane.qp));
    });
    var ladder = svgElement(ns, 'g', { transform: 'translate(0,' + SVG_HEAD + ')', 'font-family': 'DejaVu Sans Mono, monospace' });
    while (copy.firstChild) { ladder.appendChild(copy.firstChild); }
    svg.appendChild(ladder);
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg) + '\n';
  }
  function saveSvg(id) {
    var url = URL.createObjectURL(new Blob([standaloneSvg(id)], { type: 'image/svg+xml' }));
    var a = document.createElement('a');
    a.href = url;
    a.download = 'ladder-connection-' + (Number(id) + 1) + '.svg';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 0);
  }
  // page.html#svg2 shows only connection 2's ladder as it would be saved, with the SVG's text in #svg-source: what a
  // screenshot or a script takes for a slide.
  function showSvgOnly(id) {
    var text = standaloneSvg(id);
    body.innerHTML = '<div id="svg-view">' + text.replace(/^<\?xml[^>]*>/, '') + '</div>'
      + '<pre id="svg-source" style="display:none">' + esc(text) + '</pre>';
    body.setAttribute('data-svg', String(id + 1));
  }

  function connectionTitle(conn) {
    return 'Connection ' + (conn.id + 1) + ': ' + conn.transport + ' ' + conn.lanes[0].ip + ' ' + conn.lanes[0].qp
      + ' \u21c4 ' + conn.lanes[1].ip + ' ' + conn.lanes[1].qp;
  }

  function draw() {
    var msgsByConn = {};
    data.messages.forEach(function (m, n) {
      (msgsByConn[m.c] = msgsByConn[m.c] || []).push({ m: m, n: n });
    });
    var waitsByConn = {};
    data.rnr_waits.forEach(function (w) {
      (waitsByConn[w.c] = waitsByConn[w.c] || []).push(w);
    });
    var html = [];
    data.connections.forEach(function (conn) {
      var bracketed = (msgsByConn[conn.id] || []);
      var started = bracketed.filter(function (x) { return x.m.started; }).length;
      html.push('<section class="conn" data-c="' + conn.id + '"><h2>' + esc(connectionTitle(conn))
        + ' <span class="sub">' + conn.packets.length + ' packets, ' + started + ' messages started'
        + (bracketed.length === started ? '' : ' (' + bracketed.length + ' bracketed: READ responses and messages sent again too)')
        + '</span> <a class="svg-save" href="#svg' + (conn.id + 1) + '" data-svg="' + conn.id + '">save as SVG</a></h2>');
      html.push(laneHeads(conn));
      html.push(drawConnection(conn, msgsByConn, waitsByConn));
      html.push('</section>');
    });
    document.getElementById('ladders').innerHTML = html.join('');
  }

  // The packet's headers as a tree of sections (one per header), each a table of field and value.
  function tree(p) {
    var d = p.d, x = p.x, h = x.hex64 || {};
    var sections = [];
    function sec(title, rows) { sections.push({ title: title, rows: rows }); }
    function yes(b) { return b ? '1 (set)' : '0'; }
    var frame = [['Frame', '#' + d.frame], ['Captured length', d.length + ' bytes'], ['Time', x.time + ' s since 1970'],
      ['Time in this capture', fmtTime(p.t)]];
    if (p.on) { frame.push(['Captured on', p.on]); }
    if (p.a >= 0) {
      frame.push(['Arrived', fmtTime(p.a) + (p.aon ? ' on ' + p.aon : '') + ', ' + fmtTime(p.a - p.t) + ' after it was sent']);
    }
    var flags = flagNames(p.k).map(function (f) { return FLAG_WORDS[f] || f; });
    if (flags.length) { frame.push(['Marked', flags.join(', ')]); }
    if (p.note) { frame.push(['Note', p.note]); }
    sec('Frame ' + d.frame, frame);
    if (x.eth) {
      sec('Ethernet II', [['Destination', x.eth.dst], ['Source', x.eth.src], ['Type', hex(x.eth.type, 4) + (x.eth.type === 0x800 ? ' (IPv4)' : x.eth.type === 0x86dd ? ' (IPv6)' : '')]]);
    }
    if (x.ip.version === 4) {
      sec('Internet Protocol version 4', [['Source', d.src], ['Destination', d.dst], ['Type of service', hex(x.ip.tos, 2)], ['DSCP', String(d.dscp)], ['ECN', ecnName(d.ecn)],
        ['Identification', hex(d.ip_id, 4) + ' (' + d.ip_id + ')'],
        ['Flags', hex(x.ip.flags_frag >>> 13, 1) + ((x.ip.flags_frag & 0x4000) ? ' (don\'t fragment)' : '')],
        ['Fragment offset', String(x.ip.flags_frag & 0x1fff)], ['Time to live', String(x.ip.ttl)], ['Protocol', '17 (UDP)'],
        ['Header checksum', hex(x.ip.checksum, 4)]]);
    } else {
      sec('Internet Protocol version 6', [['Source', d.src], ['Destination', d.dst], ['Traffic class', hex(x.ip.tos, 2)], ['DSCP', String(d.dscp)], ['ECN', ecnName(d.ecn)],
        ['Flow label', hex(x.ip.flow, 5)], ['Hop limit', String(x.ip.ttl)], ['Next header', '17 (UDP)']]);
    }
    if (x.udp) {
      sec('User Datagram Protocol', [['Source port', String(d.sport)], ['Destination port', d.dport + (d.dport === 4791 ? ' (RoCEv2)' : '')],
        ['Length', String(x.udp.length)], ['Checksum', hex(x.udp.checksum, 4)]]);
    }
    sec('Base Transport Header (BTH)', [['Opcode', hex(d.opcode, 2) + ' ' + d.opcode_name], ['Solicited event', yes(d.se)],
      ['MigReq', yes(d.migreq)], ['Pad count', String(d.pad_count)], ['Transport header version', String(d.tver)],
      ['Partition key', hex(d.pkey, 4)], ['FECN', yes(d.fecn)], ['BECN', yes(d.becn)], ['Reserved', hex(x.bth_reserved6, 2)],
      ['Destination QP', hex(d.dest_qpn, 6) + ' (' + d.dest_qpn + ')'], ['Acknowledge request', yes(d.ack_req)],
      ['Reserved', hex(x.bth_reserved7, 2)], ['Packet sequence number', d.psn + ' (' + hex(d.psn, 6) + ')']]);
    if (d.reth) {
      sec('RDMA Extended Transport Header (RETH)', [['Virtual address', h.reth_va], ['Remote key', hex(d.reth.rkey, 8)],
        ['DMA length', d.reth.dma_len + ' bytes']]);
    }
    if (d.aeth) {
      sec('ACK Extended Transport Header (AETH)', [['Syndrome', hex(d.aeth.syndrome, 2) + ' (' + d.aeth.text + ')'],
        ['Type', d.aeth.type.replace('_', ' ').toUpperCase()], ['Value', String(d.aeth.value)],
        ['Message sequence number', String(d.aeth.msn)]]);
    }
    if (d.atomiceth) {
      sec('Atomic Extended Transport Header (AtomicETH)', [['Virtual address', h.atomic_va], ['Remote key', hex(d.atomiceth.rkey, 8)],
        ['Swap or add data', h.atomic_swap_add], ['Compare data', h.atomic_compare]]);
    }
    if (d.atomicacketh) { sec('Atomic ACK Extended Transport Header', [['Original remote data', h.atomic_orig]]); }
    if (d.immdt !== undefined) { sec('Immediate Data (ImmDt)', [['Immediate', hex(d.immdt, 8) + ' (' + d.immdt + ')']]); }
    if (d.ieth) { sec('Invalidate Extended Transport Header (IETH)', [['Remote key', hex(d.ieth.rkey, 8)]]); }
    if (d.deth) {
      sec('Datagram Extended Transport Header (DETH)', [['Queue key', hex(d.deth.qkey, 8)], ['Source QP', hex(d.deth.src_qpn, 6) + ' (' + d.deth.src_qpn + ')']]);
    }
    if (d.feth) { sec('Flush Extended Transport Header (FETH)', [['Selectivity level', String(d.feth.selectivity_level)], ['Placement type', String(d.feth.placement_type)]]); }
    if (d.cnp) { sec('Congestion Notification Packet', [['Reserved', '16 bytes']]); }
    if (d.payload_length !== undefined) {
      var rows = [['Length', d.payload_length + ' bytes']];
      if (x.payload_hex) { rows.push([d.payload_length > 64 ? 'First 64 bytes' : 'Bytes', x.payload_hex]); }
      if (x.pad_hex) { rows.push(['Pad', x.pad_hex]); }
      sec('Payload', rows);
    }
    sec('Invariant CRC (ICRC)', [['Stored', hex(d.icrc, 8)], ['Computed', hex(x.icrc_computed, 8)],
      ['Status', d.icrc_ok ? 'correct' : 'BAD']]);
    if (d.malformed) { sec('Malformed', [['Why', d.malformed]]); }
    return sections.map(function (s) {
      return '<details open><summary>' + esc(s.title) + '</summary><table>' + s.rows.map(function (r) {
        return '<tr><td>' + esc(r[0]) + '</td><td>' + esc(r[1]) + '</td></tr>';
      }).join('') + '</table></details>';
    }).join('');
  }

  var selected = null;
  function select(g) {
    if (selected) { selected.classList.remove('sel'); }
    selected = g;
    g.classList.add('sel');
    var p = packets[Number(g.getAttribute('data-i'))];
    document.getElementById('tree').innerHTML = tree(p);
  }

  var seen = {};
  function fillFilter() {
    var select = document.getElementById('qp-filter');
    while (select.options.length > 1) { select.remove(1); }
    select.value = '';
    seen = {};
    data.connections.forEach(function (c) {
      c.lanes.forEach(function (l) {
        var label = l.ip + ' ' + l.qp;
        if (!seen[label]) {
          seen[label] = [];
          var o = document.createElement('option');
          o.value = label;
          o.textContent = label;
          select.appendChild(o);
        }
        seen[label].push(String(c.id));
      });
    });
  }

  function setUpFilter() {
    var select = document.getElementById('qp-filter');
    if (data) { fillFilter(); }
    select.addEventListener('change', function () {
      var keep = select.value ? seen[select.value] : null;
      document.querySelectorAll('[data-c]').forEach(function (el) {
        el.style.display = !keep || keep.indexOf(el.getAttribute('data-c')) >= 0 ? '' : 'none';
      });
    });
  }

  function counted() {
    body.setAttribute('data-arrows', String(document.querySelectorAll('#ladders .arrow').length));
  }

  // A large capture's page holds the ladders of several stretches of frames: one is drawn at a time.
  function showStretch(link) {
    var n = link.getAttribute('data-s');
    use(document.getElementById(n === '0' ? 'ladder-data' : 'stretch-' + n));
    selected = null;
    document.getElementById('tree').innerHTML = '';
    draw();
    fillFilter();
    document.querySelectorAll('#stretches a').forEach(function (a) { a.classList.toggle('shown', a === link); });
    body.setAttribute('data-stretch', n);
    counted();
  }

  function stretchOf(frame) {
    var links = document.querySelectorAll('#stretches a[data-s]');
    for (var i = 0; i < links.length; i++) {
      if (Number(links[i].getAttribute('data-from')) <= frame && frame <= Number(links[i].getAttribute('data-to'))) {
        return links[i];
      }
    }
    return null;
  }

  // A finding's link draws the ladder around its frame and selects the packet of that frame.
  function showFrame(frame) {
    var link = stretchOf(frame);
    if (link && !link.classList.contains('shown')) { showStretch(link); }
    for (var i = 0; packets && i < packets.length; i++) {
      if (packets[i].d.frame === frame) {
        var g = document.querySelector('#ladders .arrow[data-i="' + i + '"]');
        if (g) { select(g); g.scrollIntoView({ block: 'center' }); }
        return true;
      }
    }
    return false;
  }

  if (data) {
    draw();
  } else {
    document.getElementById('ladders').innerHTML = '<p class="hint">Pick a stretch of frames under "Ladders drawn", '
      + 'or a finding\'s frame in the analysis, to draw its ladder.</p>';
  }
  setUpFilter();
  if (stretchList) {
    stretchList.addEventListener('click', function (e) {
      var a = e.target.closest('a[data-s]');
      if (a) { e.preventDefault(); showStretch(a); }
    });
  }
  var report = document.getElementById('analysis');
  if (report) {
    report.addEventListener('click', function (e) {
      var a = e.target.closest('a[data-frame]');
      if (a) {
        e.preventDefault();
        if (!showFrame(Number(a.getAttribute('data-frame')))) {
          var f = a.getAttribute('data-frame');
          body.setAttribute('data-missing-frame', f);
          document.getElementById('tree').innerHTML = '<p class="note">Frame #' + esc(f) + ' is in no ladder this page '
            + 'holds (or is a copy folded into another packet): jrxe view --around ' + esc(f) + ' draws the frames around it.</p>';
        }
      }
    });
  }
  document.getElementById('ladders').addEventListener('click', function (e) {
    var save = e.target.closest('a.svg-save');
    if (save) {
      e.preventDefault();
      saveSvg(Number(save.getAttribute('data-svg')));
      return;
    }
    var g = e.target.closest('.arrow');
    if (g) { select(g); }
  });
  // page.html#p12 opens with packet 12's headers shown (for links, and for screenshots of the page).
  var wanted = /^#p(\d+)$/.exec(location.hash);
  if (wanted) {
    var g = document.querySelector('#ladders .arrow[data-i="' + wanted[1] + '"]');
    if (g) { select(g); }
  }
  counted();
  var svgWanted = /^#svg(\d+)$/.exec(location.hash);
  if (svgWanted && data && document.querySelector('#ladders .conn[data-c="' + (svgWanted[1] - 1) + '"]')) {
    showSvgOnly(Number(svgWanted[1]) - 1);
  }
  body.setAttribute('data-ladder-done', 'true');
}());
