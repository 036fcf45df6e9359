-- wrk script for bench/receptor.sh: each connection thread sends its own slice of pre-signed,
-- unique events (file of "signature<TAB>body" lines, path in env RECEPTOR_EVENTOS).
local threads = {}
local contador = 0

function setup(thread)
  thread:set("indice", contador)
  contador = contador + 1
  table.insert(threads, thread)
end

function init(args)
  local total = tonumber(os.getenv("RECEPTOR_THREADS") or "1")
  local eventos = {}
  local n = 0
  local linha_num = 0
  for linha in io.lines(os.getenv("RECEPTOR_EVENTOS")) do
    if linha_num % total == indice then
      local tab = string.find(linha, "\t", 1, true)
      n = n + 1
      eventos[n] = wrk.format("POST", "/webhooks/loja", {
        ["Content-Type"] = "application/json",
        ["x-loja-signature"] = string.sub(linha, 1, tab - 1),
      }, string.sub(linha, tab + 1))
    end
    linha_num = linha_num + 1
  end
  proximo = 0
  quantos = n
  requisicoes = eventos
end

function request()
  proximo = proximo + 1
  if proximo > quantos then
    -- Out of unique events: wrap around (they become duplicates; the script makes enough).
    proximo = 1
  end
  return requisicoes[proximo]
end
