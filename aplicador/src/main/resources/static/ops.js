// Shared by the ops pages (pedido.html, anomalias.html). Requests are resolved against the origin:
// a URL that carries credentials (http://user:pass@host/...) cannot be fetched, while the browser
// resends the credentials it logged in with to the same origin by itself.
const ops = {
  url(caminho, parametros) {
    const url = new URL(caminho, location.origin + '/');
    for (const [k, v] of Object.entries(parametros || {})) {
      if (v !== null && v !== undefined && v !== '') url.searchParams.set(k, v);
    }
    return url;
  },
  async ler(caminho, parametros) {
    const resposta = await fetch(ops.url(caminho, parametros));
    if (!resposta.ok) throw new Error(caminho + ': status ' + resposta.status);
    return resposta.json();
  },
  // Every action sends X-Pedidos-Ops, which a cross-site form cannot: see AcoesDasOperacoes.
  async agir(acao, parametros, saida) {
    if (!confirm('Run ' + acao + ' ' + JSON.stringify(parametros) + '?')) return;
    const resposta = await fetch(ops.url('status/acoes/' + acao, parametros),
      { method: 'POST', headers: { 'X-Pedidos-Ops': '1' } });
    let d;
    try { d = await resposta.json(); } catch (e) { d = { resultado: 'falhou', detalhe: 'status ' + resposta.status }; }
    saida.className = d.resultado;
    saida.textContent = d.resultado + ': ' + d.detalhe;
  },
  texto(id, valor) { document.getElementById(id).textContent = valor ?? ''; },
  // Each row: an array of cells; a cell is text or a DOM node.
  linhas(tabela, linhas, colunas, classe) {
    const corpo = document.querySelector('#' + tabela + ' tbody');
    corpo.replaceChildren();
    if (linhas.length === 0) {
      const td = corpo.insertRow().insertCell();
      td.colSpan = colunas; td.className = 'vazio'; td.textContent = 'none';
      return;
    }
    linhas.forEach((valores, i) => {
      const tr = corpo.insertRow();
      if (classe) tr.className = classe(i) || '';
      for (const valor of valores) {
        const td = tr.insertCell();
        if (valor instanceof Node) td.append(valor); else td.textContent = valor ?? '';
      }
    });
  },
  linkDoPedido(pedido) {
    const a = document.createElement('a');
    a.href = ops.url('pedido.html', { id: pedido });
    a.textContent = pedido;
    return a;
  },
  botao(rotulo, acao, parametros) {
    const span = document.createElement('span');
    const b = document.createElement('button');
    const saida = document.createElement('div');
    b.textContent = rotulo;
    b.onclick = () => ops.agir(acao, parametros, saida).catch(e => { saida.textContent = e.message; });
    span.append(b, saida);
    return span;
  },
};
