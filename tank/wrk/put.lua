-- wrk script: PUT /v0/entity in the key-value studies' style: keys key<N>, values value<N>.
--   wrk -c64 -d60s -s tank/wrk/put.lua --latency http://127.0.0.1:8080
-- Each wrk thread keeps a counter and walks the key space with a prime stride from its own start
-- (N = (thread id * 7919 + counter * 104729) mod KEYS), so 100 000 requests of one thread touch
-- every key of the default KEYS=100000 once, and threads start far apart; a long run overwrites the
-- same key space that tank/wrk/get.lua reads, in the same order. STORAGE=<name> adds ?storage=
-- (default: the service's Kv:Default).
local keys = tonumber(os.getenv("KEYS") or "100000")
local storage = os.getenv("STORAGE")
local suffix = (storage and storage ~= "") and ("&storage=" .. storage) or ""

local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local counter = 0
function request()
  local n = (id * 7919 + counter * 104729) % keys
  counter = counter + 1
  return wrk.format("PUT", "/v0/entity?id=key" .. n .. suffix, nil, "value" .. n)
end
