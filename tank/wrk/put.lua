-- wrk script: PUT /v0/entity in the key-value studies' style: keys key<N>, values value<N>.
--   wrk -c64 -d60s -s tank/wrk/put.lua --latency http://127.0.0.1:8080
-- Each wrk thread writes its own keys (N = thread id + counter * 64), so threads never write the
-- same key at once; N wraps at KEYS (default 100000), so a long run overwrites the same key space
-- that tank/wrk/get.lua reads. STORAGE=<name> adds ?storage= (default: the service's Kv:Default).
local keys = tonumber(os.getenv("KEYS") or "100000")
local storage = os.getenv("STORAGE")
local suffix = (storage and storage ~= "") and ("&storage=" .. storage) or ""
local stride = 64 -- at most this many wrk threads

local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local counter = 0
function request()
  local n = (id + counter * stride) % keys
  counter = counter + 1
  return wrk.format("PUT", "/v0/entity?id=key" .. n .. suffix, nil, "value" .. n)
end
