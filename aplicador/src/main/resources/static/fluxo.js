// The flow over time on the status page: per-minute charts drawn as inline SVG from
// /status/fluxo (FluxoDoPainel), nothing loaded from elsewhere. status.html loads this file.
// The window: ?fluxo-minutos=180 (up to 1440) and ?fluxo-ate=<ISO instant> (default: now).
(function () {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const LARGURA = 560, ALTURA = 170;
  const MARGEM = { esquerda: 56, direita: 10, topo: 10, baixo: 22 };
  // Each series has a colour of its own, used for nothing else on the page (the page's tests find
  // the drawn data by it).
  const GRAFICOS = [
    { id: 'fluxo-por-minuto', titulo: 'Events per minute', series: [
      { campo: 'recebidos', nome: 'received', cor: '#1f77b4' },
      { campo: 'aplicados', nome: 'applied', cor: '#2ca02c' },
      { campo: 'publicados', nome: 'published (effects)', cor: '#ff7f0e' } ] },
    { id: 'fluxo-aplicacao', titulo: 'Apply time, ms (one transaction)', series: [
      { campo: 'aplicacaoP50Ms', nome: 'p50', cor: '#9467bd' },
      { campo: 'aplicacaoP99Ms', nome: 'p99', cor: '#d62728' } ] },
    { id: 'fluxo-pendentes', titulo: 'Backlog (inbox rows not yet applied)', series: [
      { campo: 'pendentes', nome: 'pending', cor: '#8c564b' } ] },
    { id: 'fluxo-idade', titulo: 'Oldest pending event, age in seconds', series: [
      { campo: 'pendenteIdadeS', nome: 'oldest pending', cor: '#e377c2' } ] },
  ];

  const parametros = new URLSearchParams(location.search);
  const endereco = new URL('status/fluxo', location.origin + location.pathname);
  endereco.searchParams.set('minutos', parametros.get('fluxo-minutos') || '180');
  if (parametros.get('fluxo-ate')) endereco.searchParams.set('ate', parametros.get('fluxo-ate'));

  function elemento(nome, atributos, pai) {
    const e = document.createElementNS(NS, nome);
    for (const [k, v] of Object.entries(atributos)) e.setAttribute(k, v);
    if (pai) pai.appendChild(e);
    return e;
  }

  function secao() {
    let s = document.getElementById('fluxo-no-tempo');
    if (s) return s;
    s = document.createElement('section');
    s.id = 'fluxo-no-tempo';
    s.innerHTML = '<h2>Flow over time <small id="fluxo-janela"></small></h2>' +
      '<p id="fluxo-erro" style="color:#b3261e"></p>' +
      '<div id="fluxo-graficos" style="display:flex;flex-wrap:wrap;gap:.75rem"></div>';
    // Right below the pipeline's numbers when the page has them, else at its end.
    const numeros = document.querySelector('.fluxo');
    if (numeros) numeros.after(s); else document.body.appendChild(s);
    return s;
  }

  function arredondarParaCima(v) {
    if (!(v > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
    return 10 * p;
  }

  function formatar(v) {
    if (v >= 1e6) return (v / 1e6).toFixed(1) + 'M';
    if (v >= 1e3) return (v / 1e3).toFixed(1) + 'k';
    return String(Math.round(v * 10) / 10);
  }

  function hora(ms) {
    return new Date(ms).toISOString().substring(11, 16);
  }

  function desenhar(fluxo, grafico, pai) {
    const caixa = document.createElement('figure');
    caixa.style.cssText = 'margin:0;background:#fff;border:1px solid #d8dde6;border-radius:6px;padding:.5rem';
    caixa.id = grafico.id;
    const legenda = grafico.series.map(s =>
      '<span style="color:' + s.cor + '">&#9632;</span> ' + s.nome).join(' &nbsp; ');
    caixa.innerHTML = '<figcaption style="font-size:.9rem">' + grafico.titulo + ' &nbsp; ' + legenda + '</figcaption>';
    const svg = elemento('svg', { width: LARGURA, height: ALTURA, viewBox: '0 0 ' + LARGURA + ' ' + ALTURA,
      role: 'img', 'aria-label': grafico.titulo }, caixa);
    const x0 = MARGEM.esquerda, x1 = LARGURA - MARGEM.direita;
    const y0 = ALTURA - MARGEM.baixo, y1 = MARGEM.topo;
    const inicio = Date.parse(fluxo.desde), fim = Date.parse(fluxo.ate);
    const minuto = 60000;
    const vao = Math.max(fim - inicio, minuto);
    // Headroom above the highest value, so that no line runs along the plot area's edge.
    const maximo = arredondarParaCima(1.1 * Math.max(0, ...fluxo.minutos.flatMap(m =>
      grafico.series.map(s => m[s.campo] ?? 0))));
    const px = t => x0 + (x1 - x0) * (t - inicio) / vao;
    // Zero sits 3 px above the bottom edge: a line of zeros is seen, and never hides the edge.
    const py = v => (y0 - 3) - (y0 - 3 - y1) * v / maximo;
    // The plot area; crisp edges everywhere so that colours are drawn exactly, unblended.
    elemento('rect', { x: x0, y: y1, width: x1 - x0, height: y0 - y1, fill: '#ffffff',
      stroke: '#c4cad4', 'shape-rendering': 'crispEdges' }, svg);
    elemento('line', { x1: x0 + 1, x2: x1 - 1, y1: py(maximo / 2), y2: py(maximo / 2),
      stroke: '#eef1f5', 'shape-rendering': 'crispEdges' }, svg);
    for (const f of [0.5, 1]) {
      const rotulo = elemento('text', { x: x0 - 4, y: py(maximo * f) + 4, 'text-anchor': 'end',
        'font-size': 10, fill: '#6b7588' }, svg);
      rotulo.textContent = formatar(maximo * f);
    }
    for (const [t, ancora] of [[inicio, 'start'], [fim, 'end']]) {
      const rotulo = elemento('text', { x: px(t), y: ALTURA - 6, 'text-anchor': ancora,
        'font-size': 10, fill: '#6b7588' }, svg);
      rotulo.textContent = hora(t) + ' UTC';
    }
    for (const serie of grafico.series) {
      // A minute without a value breaks the line: a gap is shown as a gap, never as zero.
      let trecho = [];
      const trechos = [trecho];
      let anterior = null;
      for (const m of fluxo.minutos) {
        const t = Date.parse(m.minuto);
        const v = m[serie.campo];
        if (v === null || v === undefined || (anterior !== null && t - anterior > minuto)) {
          trecho = [];
          trechos.push(trecho);
        }
        if (v !== null && v !== undefined) trecho.push([px(t + minuto / 2), py(v)]);
        anterior = t;
      }
      for (const pontos of trechos.filter(p => p.length > 0)) {
        if (pontos.length === 1) {
          elemento('rect', { x: pontos[0][0] - 1.5, y: pontos[0][1] - 1.5, width: 3, height: 3,
            fill: serie.cor, 'shape-rendering': 'crispEdges' }, svg);
        } else {
          elemento('polyline', { points: pontos.map(p => p.join(',')).join(' '), fill: 'none',
            stroke: serie.cor, 'stroke-width': 2, 'shape-rendering': 'crispEdges',
            'data-serie': serie.campo }, svg);
        }
      }
    }
    pai.appendChild(caixa);
  }

  async function atualizar() {
    secao();
    const erro = document.getElementById('fluxo-erro');
    try {
      const resposta = await fetch(endereco, { cache: 'no-store' });
      if (!resposta.ok) throw new Error('status ' + resposta.status);
      const fluxo = await resposta.json();
      const graficos = document.getElementById('fluxo-graficos');
      graficos.replaceChildren();
      for (const g of GRAFICOS) desenhar(fluxo, g, graficos);
      document.getElementById('fluxo-janela').textContent =
        fluxo.desde + ' to ' + fluxo.ate + ', ' + fluxo.minutos.length + ' minute(s) with data';
      erro.textContent = '';
    } catch (e) {
      erro.textContent = 'could not read the flow: ' + e.message;
    }
  }

  atualizar();
  setInterval(atualizar, 30000);
})();
