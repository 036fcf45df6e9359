// Delivery to the picking system (separacao.efeitos), the banner at the top of status.html: paused,
// draining the backlog after a resume, or live; the backlog and the age of its oldest effect; and
// the audited pause and resume actions (AcoesDaEntrega). Requests go to the origin, as the page's.
(() => {
  const caixa = document.getElementById('entrega');
  if (!caixa) return;
  const estilo = document.createElement('style');
  estilo.textContent = `
    #entrega { border: 1px solid #d8dde6; border-radius: 6px; padding: .5rem 1rem; margin: 0 0 1rem; background: #fff; }
    #entrega.pausada { border-color: #b3261e; background: #fdecea; }
    #entrega.esvaziando { border-color: #d9822b; background: #fff7ec; }
    #entrega strong { margin-right: .5rem; }
    #entrega .resultado { margin-top: .3rem; }`;
  document.head.appendChild(estilo);
  const url = (caminho, parametros) => {
    const u = new URL(caminho, location.origin + '/');
    for (const [k, v] of Object.entries(parametros || {})) u.searchParams.set(k, v);
    return u;
  };
  const idade = s => s === null || s === undefined ? 'none'
    : s < 120 ? Math.round(s) + ' s' : s < 7200 ? Math.round(s / 60) + ' min' : (s / 3600).toFixed(1) + ' h';
  const quando = t => t ? new Date(t).toLocaleString() : '-';
  const span = (id, texto) => Object.assign(document.createElement('span'), { id, textContent: texto });
  const resultado = Object.assign(document.createElement('div'), { className: 'resultado' });
  // Made once: the banner is redrawn every 5 s, and a reason being typed must survive it.
  const motivo = Object.assign(document.createElement('input'),
    { id: 'entrega-novo-motivo', size: 40, placeholder: 'why pause (e.g. warehouse maintenance)' });

  // Every action sends X-Pedidos-Ops, which a cross-site form cannot (AcoesDasOperacoes).
  async function agir(acao, parametros) {
    if (!confirm('Run ' + acao + '?')) return;
    const resposta = await fetch(url('status/acoes/' + acao, parametros),
      { method: 'POST', headers: { 'X-Pedidos-Ops': '1' } });
    let d;
    try { d = await resposta.json(); } catch (e) { d = { resultado: 'falhou', detalhe: 'status ' + resposta.status }; }
    resultado.className = 'resultado ' + d.resultado;
    resultado.textContent = d.resultado + ': ' + d.detalhe;
    await atualizar();
  }

  function botao(rotulo, fazer) {
    const b = document.createElement('button');
    b.textContent = rotulo;
    b.onclick = () => fazer().catch(e => { resultado.textContent = e.message; });
    return b;
  }

  async function atualizar() {
    let e;
    try {
      const resposta = await fetch(url('status/entrega'));
      if (!resposta.ok) throw new Error('status ' + resposta.status);
      e = await resposta.json();
    } catch (erro) {
      caixa.replaceChildren('could not read the delivery state: ' + erro.message);
      return;
    }
    caixa.className = e.modo;
    const pendentes = (e.pendentesAoMenos ? 'at least ' : '') + e.pendentes;
    const backlog = [' Backlog: ', span('entrega-pendentes', pendentes), ' effects unsent, oldest ',
      span('entrega-idade', idade(e.idadeDoMaisAntigo)), ' old.'];
    const partes = [];
    if (e.modo === 'pausada') {
      partes.push(Object.assign(document.createElement('strong'), { id: 'entrega-modo', textContent: 'PAUSED' }),
        'Delivery to the picking system (separacao.efeitos) is paused on purpose since ' + quando(e.pausadaEm)
          + ' by ' + e.pausadaPor + ': ', span('entrega-motivo', e.motivo), '.',
        ' Effects are still recorded in the outbox; nothing is lost.', ...backlog, ' ',
        botao('Resume delivery', () => agir('retomar-entrega')));
    } else if (e.modo === 'esvaziando') {
      partes.push(Object.assign(document.createElement('strong'), { id: 'entrega-modo', textContent: 'DRAINING' }),
        'Delivery resumed at ' + quando(e.retomadaEm) + ' by ' + e.retomadaPor
          + ': the relay sends the backlog at its configured pace, each order in order, then goes live.',
        ...backlog);
    } else {
      partes.push(Object.assign(document.createElement('strong'), { id: 'entrega-modo', textContent: 'LIVE' }),
        'Delivery to the picking system (separacao.efeitos) is live.', ...backlog, ' ', motivo, ' ',
        botao('Pause delivery', () => agir('pausar-entrega', { motivo: motivo.value })));
    }
    caixa.replaceChildren(...partes, resultado);
  }

  atualizar();
  setInterval(atualizar, 5000);
})();
