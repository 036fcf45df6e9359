// Lost webhooks (webhook_nao_entregue) on the anomalies page: grouped by event type, counted per
// hour or day, the share of facts only the store's API told as an inline SVG chart, and a day's
// list to send to the store, with its JSON and CSV. Data from /status/webhooks-nao-entregues
// (WebhooksPerdidos). anomalias.html loads this file; it follows the page's window (?desde, ?ate)
// and takes ?perdidos-dia=2026-12-02 for the day's list (default: the window's last day, UTC).
(function () {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const LARGURA = 640, ALTURA = 170;
  const MARGEM = { esquerda: 56, direita: 10, topo: 10, baixo: 22 };
  // Used for nothing else on the page: the page's test finds the drawn bars by it.
  const COR = '#c2185b';
  const parametros = new URLSearchParams(location.search);

  function secao() {
    const s = document.createElement('section');
    s.id = 'webhooks-nao-entregues';
    s.innerHTML =
      '<h2>Lost webhooks (webhook_nao_entregue) <small id="perdidos-janela"></small></h2>' +
      '<p>Facts the store\'s orders API told reconciliation and no webhook delivered. ' +
      'A webhook that came later after all marks its fact <em>late</em>, not lost.</p>' +
      '<p id="perdidos-erro" style="color:#b3261e"></p>' +
      '<p id="perdidos-total"></p>' +
      '<table id="perdidos-grupos"><thead><tr><th>event type</th><th>never delivered</th><th>late</th>' +
      '<th>median time from the fact to the API revealing it</th><th>first</th><th>last</th><th>latest orders</th>' +
      '</tr></thead><tbody></tbody></table>' +
      '<h3>Share of facts only the API told, per <span id="perdidos-passo"></span></h3>' +
      '<figure id="perdidos-grafico" style="margin:0;background:#fff;border:1px solid #d8dde6;border-radius:6px;padding:.5rem;display:inline-block"></figure>' +
      '<table id="perdidos-tempo"><thead><tr><th>from</th><th>never delivered</th><th>late</th>' +
      '<th>events stored</th><th>share only from the API</th></tr></thead><tbody></tbody></table>' +
      '<h3>A day\'s list for the store</h3>' +
      '<form id="perdidos-form">day (UTC) <input type="date" name="perdidos-dia" id="perdidos-dia"> ' +
      '<button>Show</button> <a id="perdidos-json">JSON</a> <a id="perdidos-csv">CSV</a></form>' +
      '<p id="perdidos-frase"></p>' +
      '<table id="perdidos-lista"><thead><tr><th>order</th><th>event type</th><th>sequence</th>' +
      '<th>fact\'s time</th><th>revealed by the API</th><th>after (s)</th></tr></thead><tbody></tbody></table>';
    for (const [k, v] of parametros.entries()) {
      if (k === 'perdidos-dia') continue;
      const oculto = document.createElement('input');
      oculto.type = 'hidden'; oculto.name = k; oculto.value = v;
      s.querySelector('#perdidos-form').append(oculto);
    }
    // Right after the anomalies over time, before the latest ones.
    const tempo = document.getElementById('tempo');
    if (tempo) tempo.after(s); else document.body.appendChild(s);
    return s;
  }

  function elemento(nome, atributos, pai) {
    const e = document.createElementNS(NS, nome);
    for (const [k, v] of Object.entries(atributos)) e.setAttribute(k, v);
    if (pai) pai.appendChild(e);
    return e;
  }

  function percentual(v) {
    return v === null || v === undefined ? '' : (Math.round(v * 10000) / 100) + '%';
  }

  function grafico(fatias, figura) {
    figura.replaceChildren();
    const legenda = document.createElement('figcaption');
    legenda.style.fontSize = '.9rem';
    legenda.innerHTML = '<span style="color:' + COR + '">&#9632;</span> never delivered / events stored';
    figura.append(legenda);
    const svg = elemento('svg', { width: LARGURA, height: ALTURA, viewBox: '0 0 ' + LARGURA + ' ' + ALTURA,
      role: 'img', 'aria-label': 'share of facts only the API told' }, figura);
    const x0 = MARGEM.esquerda, x1 = LARGURA - MARGEM.direita;
    const y0 = ALTURA - MARGEM.baixo, y1 = MARGEM.topo;
    const maximo = Math.max(0.01, ...fatias.map(f => f.parcela || 0));
    elemento('line', { x1: x0, y1: y0, x2: x1, y2: y0, stroke: '#999' }, svg);
    for (const [v, y] of [[0, y0], [maximo, y1]]) {
      const t = elemento('text', { x: x0 - 4, y: y + 4, 'text-anchor': 'end', 'font-size': 10 }, svg);
      t.textContent = percentual(v);
    }
    const largura = (x1 - x0) / Math.max(1, fatias.length);
    fatias.forEach((f, i) => {
      if (!f.parcela) return;
      const altura = (y0 - y1) * f.parcela / maximo;
      const barra = elemento('rect', { x: x0 + i * largura + 1, y: y0 - altura,
        width: Math.max(1, largura - 2), height: altura, fill: COR, 'data-parcela': f.parcela }, svg);
      elemento('title', {}, barra).textContent = f.inicio + ': ' + percentual(f.parcela);
    });
    if (fatias.length) {
      const primeira = elemento('text', { x: x0, y: ALTURA - 6, 'font-size': 10 }, svg);
      primeira.textContent = fatias[0].inicio.substring(0, 16).replace('T', ' ');
      const ultima = elemento('text', { x: x1, y: ALTURA - 6, 'font-size': 10, 'text-anchor': 'end' }, svg);
      ultima.textContent = fatias[fatias.length - 1].inicio.substring(0, 16).replace('T', ' ');
    }
  }

  async function janela() {
    const p = await ops.ler('status/webhooks-nao-entregues',
      { desde: parametros.get('desde'), ate: parametros.get('ate') });
    ops.texto('perdidos-janela', p.desde + ' to ' + p.ate);
    ops.texto('perdidos-total', p.perdidos + ' never delivered, ' + p.atrasados + ' late, in the window');
    ops.texto('perdidos-passo', p.por === 'hora' ? 'hour' : 'day');
    ops.linhas('perdidos-grupos', p.grupos.map(g => {
      const pedidos = document.createElement('span');
      g.pedidos.forEach((id, i) => { if (i) pedidos.append(' '); pedidos.append(ops.linkDoPedido(id)); });
      return [g.tipo, g.perdidos, g.atrasados,
        g.atrasoMedianoS === null ? '' : Math.round(g.atrasoMedianoS) + ' s', g.primeira, g.ultima, pedidos];
    }), 7);
    ops.linhas('perdidos-tempo', p.aoLongoDoTempo.map(f =>
      [f.inicio, f.perdidos, f.atrasados, f.recebidos ?? 'not counted', percentual(f.parcela)]), 5);
    grafico(p.aoLongoDoTempo, document.getElementById('perdidos-grafico'));
    return p;
  }

  async function dia(padrao) {
    const escolhido = parametros.get('perdidos-dia') || padrao;
    document.getElementById('perdidos-dia').value = escolhido;
    document.getElementById('perdidos-json').href = ops.url('status/webhooks-nao-entregues/dia', { dia: escolhido });
    document.getElementById('perdidos-csv').href =
      ops.url('status/webhooks-nao-entregues/dia', { dia: escolhido, formato: 'csv' });
    const d = await ops.ler('status/webhooks-nao-entregues/dia', { dia: escolhido });
    ops.texto('perdidos-frase', d.frase);
    // The page lists the first thousand; the JSON and the CSV hold the whole day.
    ops.linhas('perdidos-lista', d.eventos.slice(0, 1000).map(e => [ops.linkDoPedido(e.pedidoId), e.tipo,
      e.sequencia ?? '', e.fatoEm ?? '', e.reveladoEm, e.atrasoS === null ? '' : Math.round(e.atrasoS)]), 6);
  }

  function iniciar() {
    secao();
    janela()
      .then(p => dia(new Date(Date.parse(p.ate) - 1).toISOString().substring(0, 10))) // ate is exclusive
      .catch(e => ops.texto('perdidos-erro', 'could not read the lost webhooks: ' + e.message));
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', iniciar);
  else iniciar();
})();
